# bench/lab's NFS plan: nfs-lab's case lines (labcase --matrix NAME, one
# "key=value ..." line per case, # comments) in; out, one JSON object per
# case with the keys nfs-lab/run will report it under (kernel "-"), and
# its "id": the case's number in the file, which is what bench/lab
# matches the run's cases on. Defaults and key names follow
# nfs-lab/case.c (case_defaults, case_parse) and report.c; a key that
# came out differently only changes how a failed case is labelled.
# Variables: fs (nfs3, nfs4.2) and vers (3, 4.2).

function str(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

/^[ \t]*(#|$)/ { next }

{
	delete v
	v["call"] = "statx"; v["sync"] = "as-stat"; v["mask"] = "basic"
	v["object"] = "deep"; v["cache"] = "cold"; v["opts"] = "actimeo=1"
	v["delay"] = 0; v["n"] = 0
	for (i = 1; i <= NF; i++) {
		eq = index($i, "=")
		if (!eq)
			continue
		k = substr($i, 1, eq - 1)
		if (k == "cmd") {
			v[k] = substr($0, index($0, "cmd=") + 4)
			break
		}
		v[k] = substr($i, eq + 1)
		seen[NR, k] = 1
	}
	w = v["workload"]
	if (w == "")
		w = (NR, "cmd") in seen ? "cmd" : (NR, "form") in seen ? "ls" : "syscall"
	if (w == "ls") {
		if (!((NR, "call") in seen))
			v["call"] = "gnu-ls"
		if (!((NR, "form") in seen))
			v["form"] = "long"
		v["object"] = "dir"
	}
	if (w == "deep") {
		v["call"] = "statx"; v["mask"] = "basic"; v["object"] = "deep"
		v["n"] = 64
	}
	s = "{\"kernel\":\"-\",\"id\":" ++id ",\"fs\":" str(fs) \
	    ",\"mount_opts\":" str("vers=" vers (v["opts"] == "" ? "" : "," v["opts"])) \
	    ",\"workload\":" str(w)
	if (w == "cmd")
		s = s ",\"call\":\"cmd\",\"cmd\":" str(v["cmd"]) ",\"n\":" v["n"] + 0
	else {
		s = s ",\"call\":" str(v["call"])
		if (w == "ls")
			s = s ",\"form\":" str(v["form"])
		s = s ",\"sync\":" str(v["sync"])
		if (w == "syscall" || w == "deep")
			s = s ",\"mask\":" str(v["mask"])
		s = s ",\"object\":" str(v["object"])
		if (w == "ls" || w == "deep")
			s = s ",\"n\":" v["n"] + 0
	}
	print s ",\"cache\":" str(v["cache"]) ",\"delay_ms\":" v["delay"] + 0 "}"
}
