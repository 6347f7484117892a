# bench/doc.jq: the one writer of a results document (schema 1, see
# bench/README.md "results.json"), from the records the guests printed:
#   jq -n --arg started TIME --arg matrix NAME --slurpfile c CASES \
#      --slurpfile k KERNELS --slurpfile f FAILURES -f bench/doc.jq
# CASES: the "@case" objects, in any order; KERNELS: the "@kernel" ones (a
# lane says it twice: at its start, and at its end with its clock's rate
# against the host's over the lane); FAILURES: bench/lab's failure
# records. MATRIX: "" or the matrix's name. bench/lab writes every run's
# results.json with it, nfs-lab/run its own when run alone.

# A lane whose guest clock disagreed with the host's (bench/run.c): its
# cases are refused, their times are not results.
def clock_refused($ks):
	($ks[.kernel].clock[.fs].clock_refused) as $why
	| if $why and .error == null and .skipped == null
	  then .error = "guest clock: \($why)" else . end;

# Each kernel's release, its role and version in lib/kernels.list (a
# record of bench/lab's own), and per file system, its clock.
def kernels:
	(reduce $k[] as $x ({};
		if $x.kernel_role then
			.[$x.kernel] += {role: $x.kernel_role, kver: $x.kver}
		else .[$x.kernel].release = $x.release end
		| if $x.clocksource then .[$x.kernel].clock[$x.role] |=
		  (. // {}) +
		  {clocksource: $x.clocksource, res_ns: $x.clock_res_ns}
		  + (if $x.clocks then {available: ($x.clocks |
		     if type == "string" then split(" ") else . end)}
		     else {} end)
		  + ($x | with_entries(select(.key |
		     test("^(host_ppm|host_ppm_lane|clock_refused|clocksource_from)$"))))
		  else . end))
	# a kernel no lane reported on is not in the document
	| with_entries(select(.value.release != null));

# The cases of each kernel and file system in plan order (by id; a
# runner measures batched cases out of it), kernels and file systems in
# the order their first case came.
def plan_order:
	(reduce to_entries[] as $e ({};
		.["\($e.value.kernel) \($e.value.fs)"] //= $e.key)) as $first
	| sort_by($first["\(.kernel) \(.fs)"], .id);

{schema: 1}
+ (if $matrix != "" then {matrix: $matrix} else {} end)
+ {started: $started, kernels: kernels, cases: $c, failures: $f}
| .kernels as $ks
| .cases |= (plan_order | map(clock_refused($ks)))
