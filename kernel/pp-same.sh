#!/bin/sh
# Which objects of a seeded build can keep the seed's bytes.
#
# usage: kernel/pp-same.sh SEED_BUILD NEW_BUILD OBJ...
#
# Prints each OBJ (a path relative to both build folders) whose source,
# preprocessed by its own build command in each folder but without line
# markers (-E -P), is the same text in both. The compiler then makes the
# same object: line numbers only reach an object through debug
# information, which lab kernels do not have (__LINE__ itself is
# expanded in the text). An OBJ whose command is not a plain compile
# (gcc ... -c -o OBJ SRC, on 6.1 then objtool) is never printed. Each
# folder's generated headers must still be the seed's: run before make.
set -eu
seed=$1
new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# OBJ's compile command in BUILD's .cmd file (kbuild names it
# savedcmd_OBJ since 6.3, cmd_OBJ before), turned into a preprocessing
# to stdout, or nothing when the command has another shape.
pp_command() {
	awk -v o="$2" '
	{
		if (index($0, "cmd_" o " := ") == 1)
			c = substr($0, length("cmd_" o " := ") + 1)
		else if (index($0, "savedcmd_" o " := ") == 1)
			c = substr($0, length("savedcmd_" o " := ") + 1)
		else
			next
		n = split(c, part, ";")
		if (n > 2)
			exit
		if (n == 2) {
			t = part[2]
			sub(/^ +/, "", t)
			sub(/ +$/, "", t)
			if (index(t, "./tools/objtool/objtool ") != 1 ||
			    substr(t, length(t) - length(o)) != " " o)
				exit
		}
		c = part[1]
		k = index(c, " -c -o " o " ")
		if (k == 0)
			exit
		c = substr(c, 1, k - 1) " -E -P -o - " \
		    substr(c, k + length(" -c -o " o " "))
		gsub(/-Wp,-MMD,[^ ]*/, "", c)
		print c
		exit
	}' "$1/$(dirname "$2")/.$(basename "$2").cmd" 2>/dev/null
}

# Preprocess OBJ as BUILD would compile it, into FILE.
preprocess() {
	cmd=$(pp_command "$1" "$2")
	[ -n "$cmd" ] && (cd "$1" && sh -c "$cmd") >"$3" 2>/dev/null
}

for obj; do
	preprocess "$seed" "$obj" "$tmp/seed" &&
		preprocess "$new" "$obj" "$tmp/new" &&
		cmp -s "$tmp/seed" "$tmp/new" &&
		echo "$obj"
done
exit 0
