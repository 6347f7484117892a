# bench/results.jq: is a file a results document (schema 1, see
# bench/README.md "results.json")? Run with jq -r -s (the whole file as
# one array); prints the first problem found on one line, or nothing.
# Types only, and the fields bench/report and bench/compare rely on:
# values are the runs' business.

def want($what; $v; $t): "\($what) is \($v | type), want \($t)";

def case_problems($i):
	. as $c
	| ("case \($i)") as $w	# counted from 1
	| if type != "object" then want($w; .; "an object")
	else
		(("kernel", "fs", "workload", "call", "cache") as $k
		 | select(($c[$k] | type) != "string")
		 | want("\($w) .\($k)"; $c[$k]; "a string")),
		(("mount_opts", "form", "sync", "mask", "object", "error",
		  "skipped") as $k
		 | select($c[$k] != null and ($c[$k] | type) != "string")
		 | want("\($w) .\($k)"; $c[$k]; "a string")),
		(("n", "delay_ms", "calls", "wall_us", "client_calls",
		  "rpc_rtt_us", "wire_requests", "wire_us", "wire_median_us",
		  "wire_unmatched", "wire_dropped", "wire_lost", "wire_held",
		  "wire_hold_us", "wire_hold_median_us") as $k
		 | select($c[$k] != null and ($c[$k] | type) != "number")
		 | want("\($w) .\($k)"; $c[$k]; "a number")),
		(("n", "delay_ms", "calls", "wall_us") as $k
		 | select(($c[$k] | type) == "number" and $c[$k] < 0)
		 | "\($w) .\($k) is \($c[$k]), want 0 or more"),
		(select(($c.n | type) == "number" and $c.n == 0)
		 | "\($w) .n is 0, want 1 or more"),
		(select($c.skipped == null and $c.error == null)
		 | ("calls", "wall_us") as $k | select($c[$k] == null)
		 | "\($w) has no .\($k) and is neither skipped nor failed"),
		(select($c.server != null)
		 | if ($c.server | type) != "object" then
			want("\($w) .server"; $c.server; "an object")
		   else
			$c.server | to_entries[]
			| select((.value | type) != "number")
			| want("\($w) .server.\(.key)"; .value; "a number")
		   end),
		(select($c.client != null and ($c.client | type) != "object")
		 | want("\($w) .client"; $c.client; "an object"))
	end;

def problems:
	if type != "object" then want("the document"; .; "an object")
	elif .schema != 1 then "schema is \(.schema | tojson), want 1"
	elif (.started | type) != "string" then want(".started"; .started; "a string")
	elif (.kernels | type) != "object" then want(".kernels"; .kernels; "an object")
	elif (.cases | type) != "array" then want(".cases"; .cases; "an array")
	elif .failures != null and (.failures | type) != "array" then
		want(".failures"; .failures; "an array")
	else
		(.kernels | to_entries[]
		 | select((.value | type) != "object" or
			  (.value.release | type) != "string")
		 | ".kernels.\(.key) has no release string"),
		(.cases | to_entries[] | (.key + 1) as $i | .value | case_problems($i)),
		(.failures // [] | to_entries[]
		 | select((.value | type) != "object" or
			  (.value.kernel | type) != "string" or
			  (.value.fs | type) != "string" or
			  (.value.error | type) != "string" or
			  ((.value.guest_tail // []) | type) != "array")
		 | "failure \(.key + 1) wants kernel, fs and error strings and a guest_tail array")
	end;

if length == 0 then "holds no JSON document"
elif length > 1 then "holds \(length) JSON documents, want one"
else .[0] | first(problems) // empty
end
