# SPDX-License-Identifier: GPL-2.0
#
# What every folder's Makefile needs to find the lab's build root:
#   include ../lib/build.mk
# BUILD is the lab's build root (the top Makefile exports it; default
# ../build); each folder builds into a folder of it. Make targets cannot
# hold spaces, so BUILD (a path that may have them, as the checkout's
# may) is used relative to the folder: BUILD_REL. $(value BUILD): the
# path as given, since make would expand a "$" of the checkout's path
# read from the environment. $(call q,PATH): PATH quoted for the shell.

BUILD ?= ../build
q = '$(subst ','\'',$(1))'
BUILD_REL := $(shell realpath -m --relative-to=. -- $(call q,$(value BUILD)))
$(if $(BUILD_REL),,$(error BUILD=$(value BUILD): cannot resolve it))
$(if $(word 2,$(BUILD_REL)),$(error BUILD=$(value BUILD): a build folder outside the checkout cannot have spaces))
# The shared headers (lib/*.h): every folder's C sees them.
LAB_LIB := ../lib
