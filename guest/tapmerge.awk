# One kernel's TAP stream (a test run by lab_table) into the table's:
# its tests numbered on after N, "LABEL: " before each description;
# its plan, version line and any line that is not TAP go (the last as
# comments). A whole-file skip becomes one skipped test; a kernel that
# reported fewer tests than it planned, no plan, or a non-zero STATUS
# (read from the file STATUS once the stream ends) without a failed
# test, one failed test. "Bail out!" is passed on and ends the stream.
# Writes "NEXT-N FAILED" to the file COUNT, or "bail".
# Parameters from the environment: LAB_K (the label), LAB_N, LAB_STATUS,
# LAB_COUNT.
BEGIN {
	k = ENVIRON["LAB_K"]; n = ENVIRON["LAB_N"] + 0
	status = ENVIRON["LAB_STATUS"]; count = ENVIRON["LAB_COUNT"]
}

/^TAP version / { next }

/^1\.\.[0-9]+/ {
	planned = 1
	plan = substr($1, 4) + 0
	why = $0
	sub(/^1\.\.[0-9]+[ \t]*(#[ \t]*)?([Ss][Kk][Ii][Pp][ \t]*)?/, "", why)
	next
}

/^(not )?ok([ \t]|$)/ {
	bad = /^not /
	d = $0
	sub(/^(not )?ok[ \t]*[0-9]*[ \t]*(-[ \t]*)?/, "", d)
	seen++
	failed += bad
	print (bad ? "not ok " : "ok ") ++n " - " k ": " d
	next
}

/^Bail out!/ {
	print
	bailed = 1
	exit
}

/^#/ || /^[ \t]*$/ { print; next }

{ print "# " $0 }

END {
	if (bailed) {
		print "bail" >count
		exit
	}
	getline st <status
	if (planned && plan == 0 && !seen)
		print "ok " ++n " - " k " # SKIP " why
	else if (!planned || seen != plan || (st != 0 && !failed)) {
		print "not ok " ++n " - " k ": " seen " of " \
			(planned ? plan : "no plan of") " tests reported, exit status " st
		failed++
	}
	print n, failed + 0 >count
}
