# bench/results.jq: is a file a results document (schema 1, see
# bench/README.md "results.json")? Run with jq -r -s (the whole file as
# one array); prints the first problem found on one line, or nothing.
# It checks every field bench/report and bench/compare read, and only
# those: a file that passes is one they can render without an error.
#
# A results file may come from anyone, so every string is data. Names
# (kernels, file systems, opcodes, case words, releases) must be in the
# grammar the lab itself writes: they reach gnuplot, awk, Markdown and
# the terminal and are never escaped. Free text (a failed case's error,
# a guest's last lines) is bounded and escaped wherever it is printed.
# Numbers are finite; lists and strings have a size bound.

# The lab's names: kernel labels, file systems, opcodes, case words.
def name_re: "^[A-Za-z0-9._+-]{1,64}$";
# A mask: names joined by commas ("type,ino").
def mask_re: "^[A-Za-z0-9._+-]{1,64}(,[A-Za-z0-9._+-]{1,64}){0,31}$";
# Mount options: "vers=4.2,actimeo=1,nocto", or nothing.
def opts_re: "^[A-Za-z0-9._+=,-]{0,256}$";
# The start time and a kernel release (YYYY-MM-DDTHH:MM:SSZ; "6.1.192+").
def stamp_re: "^[A-Za-z0-9._+:~-]{1,64}$";
# Free text: at most this many characters.
def text_max: 4096;
def many_max: 1000000;

def want($what; $v; $t): "\($what) is \($v | type), want \($t)";
# A value in a message: JSON, printable ASCII only ("?" for the rest),
# 40 characters at most.
def shown: tojson | explode | map(if . < 32 or . > 126 then 63 else . end)
	| implode | if length > 40 then .[:40] + "..." else . end;

# name_problem(WHAT; V; RE): V is a string matching RE, or a line
def matches($what; $v; $re; $t):
	if ($v | type) != "string" then want($what; $v; $t)
	elif ($v | test($re)) then empty
	else "\($what) \($v | shown) is not \($t)"
	end;
def name($what; $v): matches($what; $v; name_re; "a name ([A-Za-z0-9._+-], 1 to 64)");
def text($what; $v):
	if ($v | type) != "string" then want($what; $v; "a string")
	elif ($v | length) > text_max then "\($what) is longer than \(text_max) characters"
	else empty
	end;
def number($what; $v):
	if ($v | type) != "number" then want($what; $v; "a number")
	elif ($v | isinfinite or isnan) then "\($what) is not a finite number"
	else empty
	end;
def list($what; $v; $max):
	if ($v | type) != "array" then want($what; $v; "an array")
	elif ($v | length) > $max then "\($what) has more than \($max) items"
	else empty
	end;
def object($what; $v; $max):
	if ($v | type) != "object" then want($what; $v; "an object")
	elif ($v | length) > $max then "\($what) has more than \($max) members"
	else empty
	end;
# counters($what; $v): an object of opcode names to numbers
def counters($what; $v):
	object($what; $v; 256) //
	($v | to_entries[] | name("\($what) key"; .key) // number("\($what).\(.key)"; .value));

def case_problems($i):
	. as $c
	| ("case \($i)") as $w	# counted from 1
	| if type != "object" then want($w; .; "an object")
	else
		(("kernel", "fs", "workload", "call", "cache") as $k
		 | name("\($w) .\($k)"; $c[$k])),
		(("form", "sync", "object") as $k | select($c[$k] != null)
		 | name("\($w) .\($k)"; $c[$k])),
		(select($c.mask != null)
		 | matches("\($w) .mask"; $c.mask; mask_re; "a mask (names joined by commas)")),
		(select($c.mount_opts != null)
		 | matches("\($w) .mount_opts"; $c.mount_opts; opts_re;
			   "mount options ([A-Za-z0-9._+=,-], up to 256)")),
		(("error", "skipped") as $k | select($c[$k] != null)
		 | text("\($w) .\($k)"; $c[$k])),
		(("id", "n", "delay_ms", "calls", "wall_us", "client_calls",
		  "rpc_rtt_us", "wire_requests", "wire_us", "wire_median_us",
		  "wire_unmatched", "wire_dropped", "wire_lost", "wire_held",
		  "wire_hold_us", "wire_hold_median_us", "wire_bytes_in",
		  "wire_bytes_out") as $k
		 | select($c[$k] != null) | number("\($w) .\($k)"; $c[$k])),
		(("changed", "detected", "missed", "false_alarms", "unreported") as $k
		 | select($c[$k] != null) | number("\($w) .\($k)"; $c[$k])),
		# a scan: what it found, or that the cookie was not reported
		(select($c.cookie != null and $c.cookie != "not reported")
		 | "\($w) .cookie is \($c.cookie | shown), want \"not reported\""),
		(select($c.workload == "scan" and $c.skipped == null and
			$c.error == null and
			($c.changed == null or ($c.cookie == null and
			 ($c.detected == null or $c.missed == null))))
		 | "\($w) is a scan without .changed, .detected and .missed or .cookie"),
		(select(($c.changed | type) == "number" and
			($c.detected | type) == "number" and
			($c.missed | type) == "number" and
			$c.detected + $c.missed != $c.changed)
		 | "\($w) .detected + .missed is not .changed"),
		(("n", "delay_ms", "calls", "wall_us", "changed", "detected",
		  "missed", "false_alarms", "unreported") as $k
		 | select(($c[$k] | type) == "number" and $c[$k] < 0)
		 | "\($w) .\($k) is \($c[$k]), want 0 or more"),
		(select(($c.n | type) == "number" and $c.n == 0)
		 | "\($w) .n is 0, want 1 or more"),
		(select($c.skipped == null and $c.error == null)
		 | ("calls", "wall_us") as $k | select($c[$k] == null)
		 | "\($w) has no .\($k) and is neither skipped nor failed"),
		(select($c.wall_us_runs != null)
		 | list("\($w) .wall_us_runs"; $c.wall_us_runs; 100) //
		   ($c.wall_us_runs | to_entries[]
		    | number("\($w) .wall_us_runs[\(.key)]"; .value))),
		(select($c.server != null) | counters("\($w) .server"; $c.server)),
		(select($c.readdir != null) | counters("\($w) .readdir"; $c.readdir)),
		(select($c.client != null)
		 | object("\($w) .client"; $c.client; 256) //
		   ($c.client | keys[] | name("\($w) .client key"; .)))
	end;

def clock_problems($k):
	. as $clk
	| object(".kernels.\($k).clock"; $clk; 16) //
	  ($clk | to_entries[] | .key as $r | .value as $v
	   | "\(".kernels.\($k).clock.\($r)")" as $w
	   | name(".kernels.\($k).clock key"; $r) //
	     object($w; $v; 16) //
	     name("\($w).clocksource"; $v.clocksource) //
	     (select($v.clocksource_from != null)
	      | name("\($w).clocksource_from"; $v.clocksource_from)) //
	     number("\($w).res_ns"; $v.res_ns) //
	     (("host_ppm", "host_ppm_lane") as $n | select($v[$n] != null)
	      | number("\($w).\($n)"; $v[$n])) //
	     (select($v.clock_refused != null)
	      | text("\($w).clock_refused"; $v.clock_refused)) //
	     (select($v.available != null)
	      | list("\($w).available"; $v.available; 32) //
		($v.available[] | name("\($w).available item"; .))));

def kernel_problems:
	.key as $k | .value as $v
	| name(".kernels key"; $k) //
	  object(".kernels.\($k)"; $v; 16) //
	  matches(".kernels.\($k).release"; $v.release; stamp_re;
		  "a release ([A-Za-z0-9._+:~-], 1 to 64)") //
	  (("role", "kver") as $n | select($v[$n] != null)
	   | name(".kernels.\($k).\($n)"; $v[$n])) //
	  ($v.clock | select(. != null) | clock_problems($k));

def failure_problems($i):
	. as $f
	| "failure \($i)" as $w
	| object($w; $f; 16) //
	  name("\($w) .kernel"; $f.kernel) //
	  name("\($w) .fs"; $f.fs) //
	  text("\($w) .error"; $f.error) //
	  (("status", "planned", "failed") as $k | select($f[$k] != null)
	   | number("\($w) .\($k)"; $f[$k])) //
	  (select($f.guest_tail != null)
	   | list("\($w) .guest_tail"; $f.guest_tail; 200) //
	     ($f.guest_tail | to_entries[]
	      | text("\($w) .guest_tail[\(.key)]"; .value)));

def problems:
	if type != "object" then want("the document"; .; "an object")
	elif .schema != 1 then "schema is \(.schema | tojson | .[:40]), want 1"
	else
		matches(".started"; .started; stamp_re;
			"a time ([A-Za-z0-9._+:~-], 1 to 64)") //
		(select(.matrix != null) | name(".matrix"; .matrix)) //
		object(".kernels"; .kernels; 64) //
		list(".cases"; .cases; many_max) //
		(select(.failures != null) | list(".failures"; .failures; 10000)) //
		(.kernels | to_entries[] | kernel_problems) //
		(.cases | to_entries[] | (.key + 1) as $i | .value
		 | case_problems($i)) //
		(.failures // [] | to_entries[] | (.key + 1) as $i | .value
		 | failure_problems($i))
	end;

if length == 0 then "holds no JSON document"
elif length > 1 then "holds \(length) JSON documents, want one"
else .[0] | first(problems) // empty
end
