# bench/lab's progress filter for one lane's output (a guest's, or an
# NFS pair's): case lines ("@case JSON") go to CASES, kernel lines
# ("@kernel JSON") to KERNELS, the rest to stderr; at most once a second
# "LANE [case k/N] elapsed, ETA" on stderr. The ETA of a guest lane
# (FUSE) weighs each case of PLAN (the order the guest reports in) by a
# guess of its cost in seconds (weight()); a pair lane's (NFS) cases
# share NFSW per kernel alike. The last 20 other lines go to TAIL: what a failed case
# shows of its guest.
# At the end it prints the number of cases seen and the weight done.
# Its parameters come from the environment (LAB_TOTAL, LAB_CASES...):
# awk -v would read backslashes in a path as escapes.
function num(k) {
	if (!match($0, "\"" k "\":[0-9]+"))
		return 0
	return substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
}

function field(k,   v) {
	if (!match($0, "\"" k "\":(\"[^\"]*\"|[0-9]+)"))
		return ""
	v = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
	gsub(/"/, "", v)
	return v
}

# A guess at a case's seconds: a fit to a quick FUSE lane (each case's
# arrival timed on the host), not a model of run.c's steps. 0.03 s a syscall case, 0.06 a deep walk, 1.5 a
# scan (its wait past a 1 s attribute timeout). An ls
# case: 0.25 s, plus its measured call three times when that takes
# under a second (run.c's repeats, each with its own setup and warm-up,
# which the constants absorb), plus one call's worth of TCG when it is
# warmed up first. A call: 0.4 ms of TCG per request, plus the delay
# and 0.5 ms of wake-up per request. Requests: about 3.5 per entry
# expired, 0.25 otherwise (READDIRPLUS pages and READLINKs). Nothing
# when fusebench's budget rule (lab_over_budget(): a delay and a 4 ms
# tick per request) will skip it. The delayed cases fit within 10 %,
# the others within 20 % but for cold ls (0.27 s against 0.26-0.44).
function weight(   n, d, req, call, warm) {
	if ($0 ~ /"workload":"scan"/)
		return 1.5
	if ($0 !~ /"workload":"ls"/)
		return $0 ~ /"workload":"deep"/ ? 0.06 : 0.03
	n = num("n")
	d = num("delay_ms")
	req = n * ($0 ~ /"cache":"expired"/ ? 3.5 : 0.25)
	if (d > 0 && req * (d + 4) / 1000 > budget)
		return 0
	call = req * (d + (d > 0 ? 0.5 : 0) + 0.4) / 1000
	warm = $0 ~ /"cache":"cold"/ ? 0 : req * 0.0004
	return 0.25 + (call < 1 ? 3 : 1) * call + warm
}

function now() { srand(); return srand() }

# Lanes share stderr, and mawk writes an unbuffered /dev/stderr a piece
# at a time: their lines interleaved mid-line. A pipe flushed once per
# line writes each line whole (one write of less than PIPE_BUF).
function say(line) {
	print line | ERR
	fflush(ERR)
}

function hms(s) { return sprintf("%dm%02ds", s / 60, s % 60) }

BEGIN {
	# LAB_ERR_FD: where the lines go when stderr is not theirs (bench/lab
	# keeps awk's own complaints about a full disk out of the progress)
	ERR = "cat >&" (ENVIRON["LAB_ERR_FD"] ? ENVIRON["LAB_ERR_FD"] + 0 : 2)
	total = ENVIRON["LAB_TOTAL"] + 0; done0 = ENVIRON["LAB_DONE0"] + 0
	t0 = ENVIRON["LAB_T0"] + 0; wdone = ENVIRON["LAB_WDONE"] + 0
	nk = ENVIRON["LAB_NK"] + 0
	what = ENVIRON["LAB_WHAT"]; lane = ENVIRON["LAB_LANE"]
	quick = ENVIRON["LAB_QUICK"]; budget = ENVIRON["LAB_BUDGET"]
	plan = ENVIRON["LAB_PLAN"]
	cases = ENVIRON["LAB_CASES"]; kernels = ENVIRON["LAB_KERNELS"]
	tail = ENVIRON["LAB_TAIL"]
	budget = budget == "" ? (quick ? 8 : 15) : budget + 0
	NFSW = quick ? 30 : 400
	# a FUSE guest's boot before its first case: 2.3 s measured
	BOOTW = 2.5
	# a guest lane's cases by weight(), a pair's alike
	guest = ENVIRON["LAB_LANE_KIND"] == "guest"
	while ((getline <plan) > 0)
		wplan += wt[++np] = weight()
	if (!guest) {
		for (i = 1; i <= np; i++)
			wt[i] = NFSW / np
		wplan = NFSW
		BOOTW = 0
	}
	wtotal = nk * (wplan + BOOTW)
}

/^@case \{.*"workload":/ {
	sub(/^@case /, "")
	print >>cases
	fflush(cases)
	k++
	wdone += (k in wt ? wt[k] : 1) + (k == 1 ? BOOTW : 0)
	t = now()
	if (t == last && done0 + k < total)
		next
	last = t
	el = t - t0
	# The first case carries the guest's boot: without its weight an
	# ETA from it said 26 minutes for a 23 s lane.
	if (wdone <= 0 || wdone < wtotal / 20)
		eta = "-"
	else
		eta = hms(wdone < wtotal ? el * (wtotal - wdone) / wdone : 0)
	say(sprintf("lab: %s [%d/%d] %s elapsed, ETA %s: %s %s %s %s %s %s N=%s %sms",
	    lane, done0 + k, total, hms(el), eta, field("kernel"),
	    field("fs"), field("workload"), field("call"),
	    field("form") == "" ? field("object") : field("form"),
	    field("cache"), field("n"), field("delay_ms")))
	next
}

/^@kernel \{.*"release":/ {
	sub(/^@kernel /, "")
	print >>kernels
	next
}

{
	say("  | " $0)
	last20[++nl % 20] = $0
}

# No "done" here: only bench/lab knows how the guest ended.
END {
	close(ERR)
	for (i = nl > 20 ? nl - 19 : 1; i <= nl; i++)
		print last20[i % 20] > tail
	close(tail)
	print k + 0, wdone
}
