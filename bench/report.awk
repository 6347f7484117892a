# bench/report's tables, from the flattened results (TSV, see report):
# kernel fs mount_opts workload call form sync mask object cache n
# delay_ms calls wall_us ops error skipped runs ("MIN MAX COUNT" of an
# ls case timed more than once; wall_us is then their median) rtt (NFS:
# the client kernel's mean round trip per call, us; its first run) wire
# (NFS: the server's median time per request on its interface, call in
# to reply out, us; the first run) hold (NFS: the median time netem held
# a reply, from the qdisc's taking it to its departure, us; first run)
# readdir (NFS: what the client decided) bytes (NFS: on the wire) scan
# (a scan: "MISSED CHANGED FALSE_ALARMS", or "nr": cookie not reported)
# Writes the Markdown to stdout, the summary to SUMMARY, gnuplot data
# under PLOTDIR, the gnuplot script to GP and the plots' names to
# PLOTLIST. FAILURES (kernel, fs, line) holds the last lines of each
# guest that failed. META holds the run's start, kernels, releases and
# clocks, a "KEY<tab>VALUE" line each. Every number printed comes from a
# case.
#
# Every string comes from a results file, which anyone may have written:
# bench/report checked the names (kernels, file systems, case words:
# results.jq's grammar) and replaced control characters; free text (an
# error) goes through md() into Markdown, and every string that reaches
# gnuplot through gp_str().
BEGIN {
	FS = "\t"
	# mount options that make a case a variant, not the reference
	REF_EXCLUDE = "default_permissions|readdirplus=on|nocto|" \
		      "lookupcache|acdirmin|nordirplus|hard|noac|" \
		      "entry_timeout=1,"
	while ((getline line < meta) > 0) {
		i = index(line, "\t")
		info[substr(line, 1, i - 1)] = substr(line, i + 1)
	}
	close(meta)
	started = info["started"]
	kinfo = info["kinfo"]
	clocks = info["clocks"]
}

# md(S): free text as Markdown text, shown as it is: every character
# that could start a link, an image, HTML, code or emphasis escaped.
function md(s,   i, c, r) {
	r = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		r = r (index("\\`*_[]<>&~|!#", c) ? "\\" : "") c
	}
	return r
}

# gp_str(S): S as a gnuplot string: single quotes expand nothing, and a
# quote in it is doubled.
function gp_str(s) {
	gsub(/'/, "''", s)
	return "'" s "'"
}

function key(   k) {
	return $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6 SUBSEP $7 SUBSEP \
	       $8 SUBSEP $9 SUBSEP $10 SUBSEP $11 SUBSEP $12
}

{
	k = key()
	if (!(k in seen)) {
		seen[k] = 1
		order[++ncase] = k
	}
	if (!($1 in kseen)) {
		kseen[$1] = 1
		kseenorder[++nkseen] = $1
	}
	if (!($2 in fseen)) {
		fseen[$2] = 1
		fss[++nfs] = $2
	}
	row[k] = $0
	if ($4 == "ls")
		lsk[$2, label($5, $6, $7, $3), $10, $11, $12] = k
	if ($17 != "") {
		skipped[k, $1] = $17
		nskip++
		next
	}
	if ($16 != "") {
		failed[k, $1] = $16
		nerr++
		fail_group($1, $2, $16, case_words())
		next
	}
	calls[k, $1] = $13
	wall[k, $1] = $14
	if ($18 != "") {
		split($18, rr, " ")
		spread[k, $1] = (rr[2] - rr[1]) / 2
		nspread++
	}
	ops[k, $1] = $15
	if ($19 != "")
		rtt[k, $1] = $19
	if ($20 != "")
		wire[k, $1] = $20
	if ($21 != "")
		hold[k, $1] = $21
	if ($22 != "") {
		decided[k, $1] = $22
		ndecided++
	}
	if ($23 != "")
		wbytes[k, $1] = $23
	if ($24 != "")
		scanres[k, $1] = $24
	if ($25 != "") {
		outlasted[k, $1] = 1
		noutlasted++
	}
	nrun++
}

# A mount's profile, in a few words: what its cache timeouts are. NFS:
# "defaults" without any ac* option or noac, else those options; FUSE:
# its entry and attribute timeouts. A figure is only true for the mount
# it was measured on: every ls table and summary line names it.
function profile(opts,   n, a, i, p, e, t) {
	n = split(opts, a, ",")
	p = ""
	e = t = ""
	for (i = 1; i <= n; i++) {
		if (a[i] ~ /^entry_timeout=/)
			e = substr(a[i], 15)
		else if (a[i] ~ /^attr_timeout=/)
			t = substr(a[i], 14)
		else if (a[i] ~ /^(ac|noac$)/)
			p = p (p == "" ? "" : ",") a[i]
	}
	if (e != "" || t != "")
		return "timeouts " (e == t ? e : e "/" t) " s"
	return p == "" ? "defaults" : p
}

function label(call, form, sync, opts,   s) {
	if (call == "lsx") {
		s = "lsx --form " form
		if (sync == "dont")
			s = s " --dont-sync"
	} else {
		s = call == "ls" ? "busybox ls" : "GNU ls"
		if (form == "color") s = s " --color"
		else if (form == "long") s = s " -l"
		else if (form == "inode") s = s " -li"
	}
	if (opts ~ /readdirplus=on/)
		s = s " (rdplus on)"
	if (opts ~ /nordirplus/)
		s = s " (nordirplus)"
	if (opts != "" && lone_profile(opts))
		s = s " [" profile(opts) "]"
	return s
}

# A mount the lab measures beside its own reference ones (NFS actimeo=N,
# FUSE timeouts of 0 and 60 s): the kernel's own NFS timeouts, noac,
# libfuse's 1 s. Its rows carry its profile, so that they never share a
# row with a case of another mount.
function lone_profile(opts,   p) {
	p = profile(opts)
	return p == "defaults" || p == "noac" || \
	       (p ~ /^timeouts / && p != "timeouts 0 s" && p != "timeouts 60 s")
}

# The profiles of the mounts behind the rows ls_index() found, by N, for
# the line under a table: "N=100: actimeo=1; N=1000: actimeo=5"; rows
# marked [defaults] are mounts without any ac* option.
function mounts_note(   i, k, f, seen, s, r) {
	s = ""
	for (i = 1; i <= nn; i++)
		for (r = 1; r <= nrow; r++) {
			k = lskey[rows[r], ns[i], 0]
			if (k == "" || rows[r] ~ / \[[^]]*\]$/)
				continue
			split(k, f, SUBSEP)
			if ((ns[i], profile(f[2])) in seen)
				continue
			seen[ns[i], profile(f[2])] = 1
			s = s (s == "" ? "" : "; ") "N=" ns[i] ": " profile(f[2])
		}
	return s
}

function mounts_line(   s, r, d) {
	s = mounts_note()
	d = 0
	for (r = 1; r <= nrow; r++)
		d += rows[r] ~ / \[[^]]*\]$/
	if (d)
		s = s (s == "" ? "" : "; ") "rows marked [...]: that mount (defaults: no ac* option, the kernel's own timeouts)"
	if (s != "")
		print "Mounts: " md(s) ".\n"
}

# The current case in a few words, for the list of failed cases.
function case_words(   s) {
	if ($4 == "ls")
		s = label($5, $6, $7, $3) " N=" $11 " " $10
	else
		s = ($4 == "deep" ? "deep tree, " : "") $5 " " $7 " " $8 " " \
		    $9 " " $10
	if ($12 > 0)
		s = s " at " $12 " ms"
	return s " (" $3 ")"
}

# Failed cases, grouped by kernel, file system and error, in order.
function fail_group(kern, fs, err, w,   g) {
	g = kern SUBSEP fs SUBSEP err
	if (!(g in fcount))
		fgroups[++nfg] = g
	fcount[g]++
	if (fcount[g] <= 12)
		fcases[g] = fcases[g] "- " w "\n"
}

# The failed cases: per kernel, file system and error, the cases (the
# first 12) and the last lines of the guest that ran them.
function failed_section(   i, g, f, line, t, tl) {
	if (!nfg)
		return
	while ((getline line < failures) > 0) {
		split(line, t, "\t")
		tl[t[1], t[2]] = tl[t[1], t[2]] "    " \
		    substr(line, length(t[1]) + length(t[2]) + 3) "\n"
	}
	close(failures)
	print "\n## Failed cases\n"
	print nerr " cases failed: their cells say `fail`. By kernel, file " \
	      "system and error:"
	for (i = 1; i <= nfg; i++) {
		g = fgroups[i]
		split(g, f, SUBSEP)
		print "\n**" f[1] ", " f[2] ": " fcount[g] " failed.** Error: " \
		      md(f[3]) "\n"
		printf "%s", fcases[g]
		if (fcount[g] > 12)
			print "- ... and " fcount[g] - 12 " more"
		if ((f[1], f[2]) in tl) {
			print "\nThe guest's last lines:\n"
			printf "%s", tl[f[1], f[2]]
			delete tl[f[1], f[2]]
		}
	}
}

# --- Time at a delay, measured or estimated -------------------------
#
# A delayed ls the run did not measure (over the budget, or not in the
# matrix) is estimated from what it did: its delay-0 time plus its
# delay-0 calls times the extra time per call at that delay, the median
# over the measured pairs (delayed case and its delay-0 twin) of the
# same file system and kernel. The error of that rule on the measured
# pairs is reported with it.

function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# The median of P[SK, 1..N], the gains of one row's pairs.
function pair_median(p, sk, n,   a, j) {
	for (j = 1; j <= n; j++)
		a[j] = p[sk, j]
	return median(a, n)
}

# The measured pairs: slope[fs, kernel, d] (us per call), npair[...].
function delay_slopes(   x, f, k, k0, j, kern, sk, n, a, v, fd) {
	for (x in lsk) {
		split(x, f, SUBSEP)
		if (f[5] == 0 || !((f[1], f[2], f[3], f[4], 0) in lsk))
			continue
		k = lsk[x]
		k0 = lsk[f[1], f[2], f[3], f[4], 0]
		for (j = 1; j <= nk; j++) {
			kern = ks[j]
			if (calls[k, kern] == "" || calls[k0, kern] == "" ||
			    calls[k, kern] == 0)
				continue
			sk = f[1] SUBSEP kern SUBSEP f[5]
			n = ++npair[sk]
			pk[sk, n] = k
			pk0[sk, n] = k0
			ps[sk, n] = (wall[k, kern] - wall[k0, kern]) / calls[k, kern]
			if ((k, kern) in rtt && (k0, kern) in rtt)
				prtt[sk, ++nprtt[sk]] = rtt[k, kern] - rtt[k0, kern]
			if ((k, kern) in wire && (k0, kern) in wire)
				pwire[sk, ++npwire[sk]] = wire[k, kern] - wire[k0, kern]
			if ((k, kern) in hold)
				phold[sk, ++nphold[sk]] = hold[k, kern]
		}
	}
	for (sk in npair) {
		n = npair[sk]
		for (j = 1; j <= n; j++) {
			a[j] = ps[sk, j]
			split(sk, f, SUBSEP)
			# every kernel's pairs, for a kernel that has none
			fd = f[1] SUBSEP f[3]
			fps[fd, ++nfps[fd]] = ps[sk, j]
		}
		slope[sk] = median(a, n)
		if (nprtt[sk])
			rttslope[sk] = pair_median(prtt, sk, nprtt[sk])
		if (npwire[sk])
			wireslope[sk] = pair_median(pwire, sk, npwire[sk])
		if (nphold[sk])
			holdmed[sk] = pair_median(phold, sk, nphold[sk])
		split(sk, f, SUBSEP)
		# the rule's error on the pairs it came from
		for (j = 1; j <= n; j++) {
			v = wall[pk0[sk, j], f[2]] + calls[pk0[sk, j], f[2]] * slope[sk]
			a[j] = v / wall[pk[sk, j], f[2]] - 1
			a[j] = a[j] < 0 ? -a[j] : a[j]
		}
		perr[sk] = median(a, n)
		for (j = 1; j <= n; j++)
			if (a[j] > maxerr[sk])
				maxerr[sk] = a[j]
	}
	for (fd in nfps) {
		for (j = 1; j <= nfps[fd]; j++)
			a[j] = fps[fd, j]
		fslope[fd] = median(a, nfps[fd])
	}
}

# The estimated time (us) of FS/LABEL/CACHE/N at delay D on KERN, or "".
function estimate(fs, l, cache, n, d, kern,   k0, sk) {
	if (!((fs, l, cache, n, 0) in lsk))
		return ""
	k0 = lsk[fs, l, cache, n, 0]
	sk = fs SUBSEP kern SUBSEP d
	if (calls[k0, kern] == "")
		return ""
	if (!(sk in slope)) {
		# no pair of its own (its delayed cases were not run): the
		# delay is the lab's, not the kernel's; every kernel's pairs
		if (!((fs, d) in fslope))
			return ""
		borrowed[fs, kern, d] = 1
		return wall[k0, kern] + calls[k0, kern] * fslope[fs, d]
	}
	used[sk] = 1
	return wall[k0, kern] + calls[k0, kern] * slope[sk]
}

# A time cell: measured ms, "≈ms" estimated, or why there is none.
function tcell(fs, l, cache, n, d, kern,   k, e) {
	k = (fs, l, cache, n, d) in lsk ? lsk[fs, l, cache, n, d] : ""
	if (k != "" && calls[k, kern] != "")
		return tms(k, kern)
	if (d > 0 && (k == "" || !((k, kern) in failed))) {
		e = estimate(fs, l, cache, n, d, kern)
		if (e != "") {
			nest++
			return "≈" ms(e)
		}
	}
	return k == "" ? "—" : ccell(k, kern)
}

# After a table with estimates: how they were made and how good they are.
function est_note(fs,   sk, f, s, j, b) {
	if (!nest)
		return
	s = ""
	for (j = 1; j <= nk; j++)
		for (sk in used) {
			split(sk, f, SUBSEP)
			if (f[1] != fs || f[2] != ks[j])
				continue
			s = s (s == "" ? "" : "; ") f[2] " at " f[3] " ms: " \
			    sprintf("%.1f ms per call from %d pairs, median error %.0f %%, worst %.0f %%", \
				    slope[sk] / 1000, npair[sk], perr[sk] * 100, maxerr[sk] * 100)
		}
	b = ""
	for (sk in borrowed) {
		split(sk, f, SUBSEP)
		if (f[1] == fs)
			b = b (b == "" ? "" : ", ") f[2] " at " f[3] " ms"
	}
	print "\n≈: not measured (over the time budget, or not in the matrix), " \
	      "estimated: the command's delay-0 time + its delay-0 calls × the " \
	      "median extra time per call of the measured pairs at that delay " \
	      "(" s "). The error is the rule's own on those measured pairs." \
	      (b == "" ? "" : " Kernels whose delayed cases did not run (" b \
	       ") take the median of every kernel's pairs on " fs ".")
	delete used
	delete borrowed
}

function diff(a, b) {
	if (a == "" || b == "")
		return ""
	return (b - a > 0 ? "+" : "") (b - a)
}

function per(c, n) {
	return c == "" ? "—" : sprintf("%.2f", c / n)
}

function ms(us) {
	return us == "" ? "—" : sprintf(us < 10000 ? "%.1f" : "%.0f", us / 1000)
}

# A measured time: ms, or the median ± half the range of its runs.
function tms(k, kern) {
	if (!((k, kern) in spread))
		return ms(wall[k, kern])
	return sprintf("%.2f±%.2f", wall[k, kern] / 1000, spread[k, kern] / 1000)
}

# The injected delays: each label beside the extra time per round trip
# measured by the pairs of cases with and without it (delay_slopes).
function delay_table(   sk, f, n, i, rows, r, w, h) {
	n = 0
	for (sk in npair)
		rows[++n] = sk
	if (!n)
		return
	for (i = 2; i <= n; i++)
		for (r = i; r > 1 && rows[r - 1] > rows[r]; r--) {
			sk = rows[r]; rows[r] = rows[r - 1]; rows[r - 1] = sk
		}
	print "\n### Injected delay: the label and the time it added\n"
	print "Per round trip, measured in the guests, each with the delay − " \
	      "without, median over the `ls` pairs. On the NFS server's " \
	      "interface: each request from its call's arrival to its " \
	      "reply's departure (an AF_PACKET tap in the server guest; " \
	      "netem holds the replies there). Held by netem: from the " \
	      "moment netem takes a reply (a mirror of the interface's " \
	      "egress before its qdisc) to its departure, with nothing " \
	      "subtracted: the delay as the server applies it, the guest's " \
	      "own wake-up when netem's timer fires included. The NFS " \
	      "client kernel's own round trip (mountstats rtt: from sending " \
	      "a call to its reply) and the wall time per call ((ms with − " \
	      "ms without) / calls) add both guests' own cost of a wait: " \
	      "under TCG a guest runs slower right after one (nfs-lab/t-guest/delay.t).\n"
	print "| fs | kernel | label ms | held by netem, ms | " \
	      "NFS server's interface, ms added | " \
	      "NFS client round trip, ms added | wall time per call, ms | pairs |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= n; i++) {
		split(rows[i], f, SUBSEP)
		h = r = w = "—"
		if (rows[i] in holdmed)
			h = sprintf("%.2f", holdmed[rows[i]] / 1000)
		if (rows[i] in rttslope)
			r = sprintf("%.2f", rttslope[rows[i]] / 1000)
		if (rows[i] in wireslope)
			w = sprintf("%.2f", wireslope[rows[i]] / 1000)
		printf "| %s | %s | %s | %s | %s | %s | %.2f | %d |\n", f[1],
		       f[2], f[3], h, w, r, slope[rows[i]] / 1000, npair[rows[i]]
	}
}

function cell(v) {
	return v == "" ? "—" : v
}

# A case's calls, or why there are none.
function ccell(k, kern) {
	if ((k, kern) in failed)
		return "fail"
	if ((k, kern) in skipped)
		return "skip"
	return cell(calls[k, kern]) omark(k, kern)
}

# ‡ beside a count whose call outlasted its mount's attribute timeout:
# attributes expired while it ran, so the count depends on its speed.
function omark(k, kern) {
	return (k, kern) in outlasted ? "‡" : ""
}

function outlasted_note() {
	if (noutlasted)
		print "\n‡: the call ran longer than its mount's shortest " \
		      "attribute timeout: attributes it had fetched expired " \
		      "while it ran, so the count depends on the guest's speed " \
		      "(`outlasted_timeout`; a longer timeout, as the defaults, " \
		      "gives the count the kernel decides)."
}

# The kernels present, in the order the run has them (bench/lab runs
# lib/kernels.list's order); each kernel's base, the first kernel of its
# version (major.minor of its release), which differences are against:
# patched-6.12 against stock-6.12, not against stock.
function kernels(   i, j, n, t, kv) {
	n = split(info["kvers"], t, " ")
	for (i = 1; i <= n; i++) {
		split(t[i], kv, "=")
		kver[kv[1]] = kv[2]
	}
	nk = 0
	for (i = 1; i <= nkseen; i++)
		ks[++nk] = kseenorder[i]
	nbase = 0
	for (i = 1; i <= nk; i++) {
		kbase[ks[i]] = ks[i]
		for (j = 1; j < i; j++)
			if (kver[ks[j]] == kver[ks[i]]) {
				kbase[ks[i]] = ks[j]
				break
			}
		if (kbase[ks[i]] == ks[i])
			bases[++nbase] = ks[i]
	}
	base = ks[1]
}

# The kernels differences are against, "stock, stock-6.12".
function bases_list(   i, s) {
	s = ""
	for (i = 1; i <= nbase; i++)
		s = s (i > 1 ? ", " : "") bases[i]
	return s
}

# The header cells "KERNEL − BASE" of every kernel that has a base.
function diff_headers(n,   j) {
	for (j = 1; j <= nk; j++)
		if (kbase[ks[j]] != ks[j])
			hdr[++n] = ks[j] " − " kbase[ks[j]]
	return n
}

function header(first, cols,   i, s, d) {
	s = "| " first
	d = "| ---"
	for (i = gsub(/\|/, "|", first); i > 0; i--)
		d = d " | ---"
	for (i = 1; i <= cols; i++) {
		s = s " | " hdr[i]
		d = d " | ---:"
	}
	print s " |"
	print d " |"
}

# A case's requests: its base kernels' ("stock: ..."), then each other
# kernel's where they differ from its base's ("→ patched: ...").
function requests(k,   j, s, o, b) {
	s = ""
	for (j = 1; j <= nk; j++) {
		o = ops[k, ks[j]] == "" ? "none" : ops[k, ks[j]]
		b = kbase[ks[j]]
		if (b == ks[j])
			s = s (s == "" ? "" : "; ") (nbase > 1 ? ks[j] ": " : "") o
		else if (o != (ops[k, b] == "" ? "none" : ops[k, b]))
			s = s " → " ks[j] ": " o
	}
	return s
}

function syscall_table(fs,   i, k, f, j, n, c, any) {
	for (i = 1; i <= ncase && !any; i++) {
		split(order[i], f, SUBSEP)
		any = f[1] == fs && f[3] == "syscall"
	}
	if (!any)
		return
	print "\n### " fs ": server calls per syscall\n"
	print "One call, after the cache was brought to the state named; " \
	      "`calls` are the round trips the caller waited for.\n"
	n = 0
	for (j = 1; j <= nk; j++) hdr[++n] = ks[j]
	n = diff_headers(n)
	hdr[++n] = "requests (where a kernel's differ from its base's)"
	header("mount | call | sync | mask | object | cache", n)
	for (i = 1; i <= ncase; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		if (f[1] != fs || f[3] != "syscall")
			continue
		c = "| " f[2] " | " f[4] " | " f[6] " | " f[7] " | " f[8] \
		    " | " f[9]
		for (j = 1; j <= nk; j++)
			c = c " | " ccell(k, ks[j])
		for (j = 1; j <= nk; j++)
			if (kbase[ks[j]] != ks[j])
				c = c " | " cell(diff(calls[k, kbase[ks[j]]],
						      calls[k, ks[j]]))
		print c " | " requests(k) " |"
	}
}

function deep_table(fs,   i, k, f, j, c, any) {
	for (i = 1; i <= ncase && !any; i++) {
		split(order[i], f, SUBSEP)
		any = f[1] == fs && f[3] == "deep"
	}
	if (!any)
		return
	print "\n### " fs ": deep tree, statx of every file by its full path\n"
	for (j = 1; j <= nk; j++) {
		hdr[3 * j - 2] = ks[j] " calls"
		hdr[3 * j - 1] = "per file"
		hdr[3 * j] = "ms"
	}
	header("mount | sync | cache | files", 3 * nk)
	for (i = 1; i <= ncase; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		if (f[1] != fs || f[3] != "deep")
			continue
		c = "| " f[2] " | " f[6] " | " f[9] " | " f[10]
		for (j = 1; j <= nk; j++)
			c = c " | " ccell(k, ks[j]) " | " \
			    per(calls[k, ks[j]], f[10]) " | " \
			    ms(wall[k, ks[j]])
		print c " |"
	}
}

# A scan's mode, as the table names it
function scan_mode(sync) {
	if (sync == "as-stat")
		return "(a) statx mtime,ctime,size"
	if (sync == "dont")
		return "(b) list, cookie DONT_SYNC"
	return "(c) cookie FORCE_SYNC"
}

# What a scan missed: "1 of 2" (and its false alarms), or why not known
function scan_cell(k, kern,   r) {
	if ((k, kern) in failed)
		return "fail"
	if ((k, kern) in skipped)
		return "skip"
	if (!((k, kern) in scanres))
		return "—"
	if (scanres[k, kern] == "nr")
		return "cookie not reported"
	split(scanres[k, kern], r, " ")
	return r[1] " of " r[2] (r[3] > 0 ? ", " r[3] " false" : "")
}

function scan_table(fs,   i, k, f, j, c, any) {
	for (i = 1; i <= ncase && !any; i++) {
		split(order[i], f, SUBSEP)
		any = f[1] == fs && f[3] == "scan"
	}
	if (!any)
		return
	print "\n### " fs ": which files changed since the last scan\n"
	print "After a scan, two files changed behind the client's back: " \
	      "one grew, one was rewritten with its size and times kept " \
	      "(a change within one timestamp granule). The scan again, " \
	      "its attributes expired: calls per file, and the changes it " \
	      "missed. (b) lists the directory once first.\n"
	for (j = 1; j <= nk; j++) {
		hdr[2 * j - 1] = ks[j] " per file"
		hdr[2 * j] = "missed"
	}
	header("mount | mode | files", 2 * nk)
	for (i = 1; i <= ncase; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		if (f[1] != fs || f[3] != "scan")
			continue
		c = "| " profile(f[2]) " | " scan_mode(f[6]) " | " f[10]
		for (j = 1; j <= nk; j++)
			c = c " | " (calls[k, ks[j]] == "" ? ccell(k, ks[j]) : \
				     per(calls[k, ks[j]], f[10])) " | " \
			    scan_cell(k, ks[j])
		print c " |"
	}
}

# One summary line: each kernel's misses by mode (a/b/c; nr: no cookie)
function scan_line(fs,   i, k, f, j, s, m, r, n) {
	s = ""
	for (j = 1; j <= nk; j++) {
		m = ""
		n = 0
		for (i = 1; i <= ncase; i++) {
			k = order[i]
			split(k, f, SUBSEP)
			if (f[1] != fs || f[3] != "scan")
				continue
			split(scanres[k, ks[j]], r, " ")
			m = m (n++ ? "/" : "") \
			    ((k, ks[j]) in scanres ? r[1] : "—")
		}
		s = s (j > 1 ? " → " : "") m
	}
	if (n)
		say(sprintf("%-7s %-34s %s", fs, "scan missed (as-stat/dont/force)", s))
}

# The ls rows of one fs and cache, and the N and delays they cover.
function ls_index(fs, cache,   i, k, f, l) {
	nrow = 0
	delete lskey
	delete rows
	delete rowseen
	delete nseen
	delete dseen
	nn = 0
	nd = 0
	for (i = 1; i <= ncase; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		if (f[1] != fs || f[3] != "ls" || f[9] != cache)
			continue
		l = label(f[4], f[5], f[6], f[2])
		if (!(l in rowseen)) {
			rowseen[l] = 1
			rows[++nrow] = l
		}
		lskey[l, f[10], f[11]] = k
		if (!(f[10] in nseen)) {
			nseen[f[10]] = 1
			ns[++nn] = f[10]
		}
		if (!(f[11] in dseen)) {
			dseen[f[11]] = 1
			ds[++nd] = f[11]
		}
	}
	sortnum(ns, nn)
	sortnum(ds, nd)
}

function sortnum(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}

function ls_calls_table(fs, cache,   r, i, j, c, k, n) {
	ls_index(fs, cache)
	if (!nrow)
		return
	print "\n### " fs ", " cache ": calls per file, by `ls` form and N\n"
	n = 0
	for (i = 1; i <= nn; i++)
		for (j = 1; j <= nk; j++)
			hdr[++n] = "N=" ns[i] " " ks[j]
	mounts_line()
	header("command", n)
	for (r = 1; r <= nrow; r++) {
		c = "| " rows[r]
		for (i = 1; i <= nn; i++)
			for (j = 1; j <= nk; j++) {
				k = lskey[rows[r], ns[i], 0]
				if (k == "" || calls[k, ks[j]] == "")
					c = c " | " (k == "" ? "—" : ccell(k, ks[j]))
				else
					c = c " | " per(calls[k, ks[j]], ns[i]) \
					    omark(k, ks[j])
			}
		print c " |"
		plot_calls(fs, cache, rows[r])
	}
	outlasted_note()
}

# The headline: per command and N, calls per file and ms per ls at the
# largest delay, every kernel side by side.
# Calls per file of @kern minus its base's, for @n entries.
function glance_diff(k, kern, n,   b) {
	b = kbase[kern]
	if (calls[k, b] == "" || calls[k, kern] == "")
		return "—"
	return sprintf("%+.2f", (calls[k, kern] - calls[k, b]) / n)
}

function ls_glance_table(fs, cache,   r, i, j, c, k, n, d) {
	ls_index(fs, cache)
	d = ds[nd]
	if (!nrow || d == 0)
		return
	print "\n### " fs ", " cache ": `ls` at a glance: calls per file, ms per `ls` at " d " ms per request\n"
	n = 0
	for (j = 1; j <= nk; j++)
		hdr[++n] = ks[j] " calls/file"
	n = diff_headers(n)
	for (j = 1; j <= nk; j++)
		hdr[++n] = ks[j] " ms"
	mounts_line()
	header("command | N", n)
	nest = 0
	for (r = 1; r <= nrow; r++)
		for (i = 1; i <= nn; i++) {
			k = lskey[rows[r], ns[i], 0]
			if (k == "")
				continue
			c = "| " rows[r] " | " ns[i]
			for (j = 1; j <= nk; j++)
				c = c " | " (calls[k, ks[j]] == "" ? ccell(k, ks[j]) : \
					     per(calls[k, ks[j]], ns[i]) omark(k, ks[j]))
			for (j = 1; j <= nk; j++)
				if (kbase[ks[j]] != ks[j])
					c = c " | " glance_diff(k, ks[j], ns[i])
			for (j = 1; j <= nk; j++)
				c = c " | " tcell(fs, rows[r], cache, ns[i], d, ks[j])
			print c " |"
		}
	est_note(fs)
	outlasted_note()
}

# What the NFS client decided while it listed (its readdir tracepoints,
# nfs-lab/rdtrace.c), beside what it sent: per `ls` row of the largest N,
# the server's op mix, then "forced" (the "ls -l" heuristic dropped the
# listing and read it again with attributes), "primed" (entries whose
# attributes came in the readdir replies) and the RPC bytes both ways on
# the server's interface (its tap).
function decided_table(fs, cache,   r, j, c, k, n, d, any) {
	if (!ndecided)
		return
	ls_index(fs, cache)
	n = ns[nn]
	for (r = 1; r <= nrow && !any; r++)
		for (j = 1; j <= nk; j++)
			any = any || ((lskey[rows[r], n, 0], ks[j]) in decided)
	if (!any)
		return
	print "\n### " fs ", " cache ": what the client decided, `ls` of N=" n "\n"
	for (j = 1; j <= nk; j++)
		hdr[j] = ks[j]
	mounts_line()
	header("command", nk)
	for (r = 1; r <= nrow; r++) {
		k = lskey[rows[r], n, 0]
		c = "| " rows[r]
		for (j = 1; j <= nk; j++) {
			if (!((k, ks[j]) in decided)) {
				c = c " | " ccell(k, ks[j])
				continue
			}
			split(decided[k, ks[j]], d, " ")
			c = c " | " ops[k, ks[j]] "; forced " d[1] ", primed " d[2] \
			    ((k, ks[j]) in wbytes ? \
			     sprintf("; %.1f KiB", wbytes[k, ks[j]] / 1024) : "")
		}
		print c " |"
	}
	print "\nforced: times the \"ls -l\" heuristic restarted the listing " \
	      "with attributes (nfs_readdir_force_readdirplus); primed: entries " \
	      "whose attributes came with the listing (nfs_readdir_lookup*); " \
	      "KiB: the calls' and replies' TCP data on the server's interface."
}

function ls_time_table(fs, cache,   r, i, j, d, c, k, n) {
	ls_index(fs, cache)
	if (!nrow)
		return
	print "\n### " fs ", " cache ": milliseconds per `ls`, by delay per request\n"
	n = 0
	for (d = 1; d <= nd; d++)
		for (j = 1; j <= nk; j++)
			hdr[++n] = ds[d] " ms " ks[j]
	mounts_line()
	header("command | N", n)
	nest = 0
	for (r = 1; r <= nrow; r++)
		for (i = 1; i <= nn; i++) {
			c = "| " rows[r] " | " ns[i]
			for (d = 1; d <= nd; d++)
				for (j = 1; j <= nk; j++)
					c = c " | " tcell(fs, rows[r], cache, ns[i],
							  ds[d], ks[j])
			print c " |"
		}
	est_note(fs)
	for (r = 1; r <= nrow; r++)
		plot_time(fs, cache, rows[r], ds[nd])
}

function slug(s) {
	gsub(/[^A-Za-z0-9.]+/, "-", s)
	return s
}

# Data files for the plots: one per (plot, series) of kernel KERN;
# plots[PLOT] lists them.
function series(plot, title, file, x, y, kern) {
	if (!((plot, title) in sseen)) {
		sseen[plot, title] = 1
		plots[plot] = plots[plot] (plots[plot] == "" ? "" : "\n") \
			      file "\t" title "\t" kern
	}
	print x, y > (plotdir "/" file)
}

# The plots: one per file system, cache state and mount profile (a
# figure is only true for the mount it was measured on, and the lab's
# reference rows change mounts with N), a line per kernel and long form.
function plot_name(what, fs, cache, k,   f) {
	split(k, f, SUBSEP)
	return what "-" slug(fs) "-" cache "-" slug(profile(f[2]))
}

function plot_series(p, kern, l, x, y,   t) {
	t = l
	sub(/ \[[^]]*\]$/, "", t)
	series(p, kern " " t, p "-" slug(kern " " t) ".dat", x, y, kern)
}

function plot_calls(fs, cache, l,   i, j, k, p, f) {
	if (l !~ /-l( \[[^]]*\])?$|long( --dont-sync)?( \[[^]]*\])?$/)
		return
	for (i = 1; i <= nn; i++)
		for (j = 1; j <= nk; j++) {
			k = lskey[l, ns[i], 0]
			if (k == "" || calls[k, ks[j]] == "")
				continue
			p = plot_name("calls", fs, cache, k)
			split(k, f, SUBSEP)
			ptitle[p] = fs ", " cache ": server calls per file, long forms; mount: " profile(f[2])
			pylabel[p] = "calls per file"
			plot_series(p, ks[j], l, ns[i], calls[k, ks[j]] / ns[i])
		}
}

function plot_time(fs, cache, l, d,   i, j, k, p, f) {
	if (l !~ /-l( \[[^]]*\])?$|long( --dont-sync)?( \[[^]]*\])?$/ || d == "")
		return
	for (i = 1; i <= nn; i++)
		for (j = 1; j <= nk; j++) {
			k = lskey[l, ns[i], d]
			if (k == "" || wall[k, ks[j]] == "")
				continue
			p = plot_name("time", fs, cache, k)
			split(k, f, SUBSEP)
			ptitle[p] = fs ", " cache ": ms per ls at " d \
				    " ms per request, long forms; mount: " profile(f[2])
			pylabel[p] = "ms per ls"
			plot_series(p, ks[j], l, ns[i], wall[k, ks[j]] / 1000)
		}
}

function gnuplot_script(   p, n, i, s, sp, names, np, q, kern, cmd, kn, nc) {
	# a kernel's dash pattern and point by its place in the kernel order
	split("7 6 2 4 8 10 12 14", kpt, " ")
	for (i = 1; i <= nk; i++)
		kpos[ks[i]] = i
	np = 0
	for (p in plots)
		names[++np] = p
	for (i = 2; i <= np; i++)
		for (j = i; j > 1 && names[j - 1] > names[j]; j--) {
			q = names[j]; names[j] = names[j - 1]; names[j - 1] = q
		}
	for (q = 1; q <= np; q++) {
		p = names[q]
		n = split(plots[p], s, "\n")
		print "set title " gp_str(ptitle[p]) " noenhanced" > gp
		print "set ylabel " gp_str(pylabel[p]) " noenhanced" > gp
		print "set xlabel \"N (entries in the directory)\"\nset logscale x" > gp
		print (p ~ /^time/ ? "set logscale y" : "unset logscale y") > gp
		print "set key outside right font \",9\"\nset grid\nset pointsize 0.8" > gp
		# a colour per command, a dash pattern and point per kernel
		delete cmdc
		nc = 0
		for (i = 1; i <= n; i++) {
			split(s[i], sp, "\t")
			kern = sp[3]
			cmd = substr(sp[2], length(kern) + 2)
			if (!(cmd in cmdc))
				cmdc[cmd] = ++nc
			kn = kpos[kern]
			pl[i] = gp_str(plotdir "/" sp[1]) " using 1:2 with linespoints" \
				" lc " cmdc[cmd] " dt " kn " pt " kpt[(kn - 1) % 8 + 1] \
				" lw 1.5 title " gp_str(sp[2]) " noenhanced"
		}
		for (t = 1; t <= 2; t++) {
			print (t == 1 ? "set terminal svg size 960,480 dynamic" : \
			       "set terminal pngcairo size 960,480") > gp
			print "set output " gp_str(plotdir "/" p (t == 1 ? ".svg" : ".png")) > gp
			line = "plot "
			for (i = 1; i <= n; i++)
				line = line (i > 1 ? ", " : "") pl[i]
			print line > gp
		}
		print "unset output" > gp
		img[++nimg] = p
		print p > plotlist
	}
}

# --- Across kernel versions ---------------------------------------------
#
# A kernel's version and role are lib/kernels.list's (bench/lab records
# them); a file without them gives the release's major.minor and the
# label without a "-VERSION" suffix: stock and stock-6.12 are the stock
# role on 6.1 and 6.12. The section compares each role
# across versions on the reference cases of every file system.

function vkernels(   n, i, t, kv, r, v) {
	n = split(info["kvers"], t, " ")
	for (i = 1; i <= n; i++) {
		split(t[i], kv, "=")
		kver[kv[1]] = kv[2]
	}
	n = split(info["kroles"], t, " ")
	for (i = 1; i <= n; i++) {
		split(t[i], kv, "=")
		krole[kv[1]] = kv[2]
	}
	nvr = nvv = 0
	for (i = 1; i <= nk; i++) {
		v = kver[ks[i]]
		if (v == "")
			continue
		# its role: lib/kernels.list's, recorded by bench/lab; in an
		# older file, its label without the version suffix
		r = krole[ks[i]]
		if (r == "") {
			r = ks[i]
			if (substr(r, length(r) - length(v)) == "-" v)
				r = substr(r, 1, length(r) - length(v) - 1)
		}
		if (!(r in vrseen)) {
			vrseen[r] = 1
			vroles[++nvr] = r
		}
		if (!(v in vvseen)) {
			vvseen[v] = 1
			vvers[++nvv] = v
		}
		vk[r, v] = ks[i]
	}
	sortver(vvers, nvv)
}

function verless(a, b,   x, y) {
	split(a, x, ".")
	split(b, y, ".")
	return x[1] + 0 < y[1] + 0 || (x[1] == y[1] && x[2] + 0 < y[2] + 0)
}

function sortver(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && verless(a[j], a[j - 1]); j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}

# The rows of FS's comparison: vrow[i] (a case key), vname[i], vdiv[i]
# (the calls are divided by it: 1, or N for an ls).
function vrows(fs,   i, j, c, k, f, nt, cs, l, n, lk) {
	nvrow = 0
	split("cold warm expired", cs, " ")
	nt = 0
	for (i = 1; i <= ncase; i++) {
		split(order[i], f, SUBSEP)
		if (f[1] != fs || f[3] != "syscall" || f[8] != "deep" ||
		    (f[7] != "basic" && f[7] != "type,ino" && f[7] != "-") ||
		    ((f[4], f[6], f[7]) in tseen))
			continue
		tseen[f[4], f[6], f[7]] = 1
		tc[++nt] = f[4]; ts[nt] = f[6]; tm[nt] = f[7]
	}
	delete tseen
	for (j = 1; j <= nt; j++)
		for (c = 1; c <= 3; c++) {
			k = find(fs, "syscall", tc[j], "-", ts[j], tm[j],
				 "deep", cs[c], 1, 0, "")
			if (k == "")
				continue
			vrow[++nvrow] = k
			vname[nvrow] = tc[j] (tc[j] == "statx" ? " " ts[j] " " tm[j] : "") \
				       " [" prof_of(k) "] | " cs[c]
			vdiv[nvrow] = 1
		}
	for (l in lseen)
		delete lseen[l]
	for (i = 1; i <= ncase; i++) {
		split(order[i], f, SUBSEP)
		if (f[1] != fs || f[3] != "ls" || f[11] != 0)
			continue
		l = label(f[4], f[5], f[6], f[2])
		if (l !~ /-l$|long$|long --dont-sync$/ || (l in lseen))
			continue
		lseen[l] = 1
		for (c = 1; c <= 3; c++)
			for (n = 100; n <= 1000; n *= 10) {
				lk = (fs, l, cs[c], n, 0) in lsk ? lsk[fs, l, cs[c], n, 0] : ""
				if (lk == "")
					continue
				vrow[++nvrow] = lk
				# a row's mount: in its label, else by N
				vname[nvrow] = l " N=" n \
					(l ~ / \[[^]]*\]$/ ? "" : " [" prof_of(lk) "]") \
					" | " cs[c]
				vdiv[nvrow] = n
			}
	}
}

# A comparison cell: calls (per file for an ls), or why there are none.
function vcell(r, kern) {
	if (kern == "")
		return "—"
	if (calls[vrow[r], kern] == "")
		return ccell(vrow[r], kern)
	return (vdiv[r] == 1 ? calls[vrow[r], kern] : \
		per(calls[vrow[r], kern], vdiv[r])) omark(vrow[r], kern)
}

# The rows where kernels A and B both measured and differ, as a list.
function vdiffs(a, b,   r, s, m) {
	m = 0
	s = ""
	for (r = 1; r <= nvrow; r++) {
		if (a == "" || b == "" || calls[vrow[r], a] == "" ||
		    calls[vrow[r], b] == "")
			continue
		vcompared++
		if (calls[vrow[r], a] == calls[vrow[r], b])
			continue
		# an ls's own counts: per file, two could round alike
		if (++m <= 8)
			s = s (s == "" ? "" : "; ") vname[r] ": " \
			    calls[vrow[r], a] omark(vrow[r], a) " → " \
			    calls[vrow[r], b] omark(vrow[r], b) \
			    (vdiv[r] > 1 ? " calls" : "")
	}
	if (m > 8)
		s = s "; ... " m - 8 " more"
	vdiffn = m
	return s
}

function version_section(   i, j, r, v, n, fs, c, v1, d, base_r) {
	vkernels()
	if (nvv < 2)
		return
	v1 = vvers[1]
	base_r = vroles[1]
	print "\n## " v1 " → " vvers[nvv] "\n"
	print "The same cases on each kernel version: the deep path d1/d2/file " \
	      "in every sync mode and cache state, and the long `ls` forms at " \
	      "N=100 and 1000 (calls per file), on the reference mount of each file " \
	      "system (no opt-in mount option, READDIRPLUS as the kernel " \
	      "decides). A cell is the round trips the caller waited for; " \
	      "`—`: not in this run's plan."
	for (i = 1; i <= nfs; i++) {
		fs = fss[i]
		vrows(fs)
		if (!nvrow)
			continue
		print "\n### " fs "\n"
		for (v = 2; v <= nvv; v++) {
			vcompared = 0
			d = vdiffs(vk[base_r, v1], vk[base_r, vvers[v]])
			if (vcompared)
				print "- Mainline alone (" base_r " " v1 " → " base_r \
				      " " vvers[v] "): " (vdiffn ? vdiffn " of " \
				      vcompared " counts changed: " d "." : \
				      "no count changed (" vcompared " compared).")
		}
		for (r = 2; r <= nvr; r++)
			for (v = 1; v <= nvv; v++) {
				vcompared = 0
				d = vdiffs(vk[base_r, vvers[v]], vk[vroles[r], vvers[v]])
				if (vcompared)
					print "- " vroles[r] " on " vvers[v] " (against " \
					      base_r " " vvers[v] "): " (vdiffn ? \
					      vdiffn " of " vcompared " counts differ: " d "." : \
					      "no count differs (" vcompared " compared).")
			}
		n = 0
		for (r = 1; r <= nvr; r++)
			for (v = 1; v <= nvv; v++)
				hdr[++n] = vroles[r] " " vvers[v]
		print ""
		header("case | cache", n)
		for (j = 1; j <= nvrow; j++) {
			c = "| " vname[j]
			for (r = 1; r <= nvr; r++)
				for (v = 1; v <= nvv; v++)
					c = c " | " vcell(j, vk[vroles[r], vvers[v]])
			print c " |"
		}
		outlasted_note()
	}
}

# summary LINE: one line of the on-screen summary.
function say(s) {
	print s > summary
}

# The first case of the plan with these keys; opts "": on the reference
# mount (no opt-in, no option variant, READDIRPLUS as the kernel decides)
function find(fs, wl, call, form, sync, mask, object, cache, n, d, opts,
	      i, k, f, mo) {
	for (i = 1; i <= ncase; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		if (opts == "")
			mo = f[2] !~ REF_EXCLUDE
		else
			mo = index(f[2], opts) > 0
		if (mo && f[1] == fs && f[3] == wl && f[4] == call &&
		    f[5] == form && f[6] == sync && f[7] == mask &&
		    f[8] == object && f[9] == cache && f[10] == n && f[11] == d)
			return k
	}
	return ""
}

# The profile of case K's mount
function prof_of(k,   f) {
	split(k, f, SUBSEP)
	return profile(f[2])
}

function across(k, fmt,   j, s) {
	s = ""
	for (j = 1; j <= nk; j++)
		s = s (j > 1 ? " → " : "") (k == "" || calls[k, ks[j]] == "" ? "—" : \
		    (fmt == "" ? calls[k, ks[j]] : \
		     sprintf(fmt, calls[k, ks[j]] / fmt_n)) omark(k, ks[j]))
	return s
}

# One summary line for a command across N: "N=100: a → b; N=1000: ...",
# calls per file, or ms at delay D (≈: estimated, as in the tables).
function ls_line(fs, what, call, form, sync, cache, d, time,   n, k, s, pf) {
	s = ""
	for (n = 100; n <= 10000; n *= 10) {
		k = find(fs, "ls", call, form, sync, "-", "dir", cache, n, 0, "")
		if (k == "")
			continue
		fmt_n = n
		split(k, pf, SUBSEP)
		s = s (s == "" ? "" : "; ") "N=" n " [" profile(pf[2]) "]: " \
		    (time ? wtimes(fs, label(call, form, sync, ""), cache, n, d) : \
			    across(k, "%.2f"))
	}
	if (s != "")
		say(sprintf("%-7s %-34s %s", fs, what, s))
}

function summarize(   fs, i, k, f) {
	say(sprintf("%d cases: %d measured, %d skipped by the time budget, %d failed; %s", \
		    nrun + nskip + nerr, nrun, nskip, nerr, kl))
	for (i = 1; i <= nfg && i <= 3; i++) {
		split(fgroups[i], f, SUBSEP)
		say(sprintf("FAILED  %s %s, %d cases: %s", f[1], f[2],
			    fcount[fgroups[i]], length(f[3]) > 100 ? \
			    substr(f[3], 1, 97) "..." : f[3]))
	}
	if (nfg > 3)
		say("FAILED  ... and " nfg - 3 " more (kernel, file system, error): see report.md")
	say("(≈: a time estimated from the run's own delay-0 case, see report.md)")
	if (noutlasted)
		say("(‡: a count that outlasted its mount's attribute timeout: it depends on the guest's speed)")
	for (i = 1; i <= nfs; i++) {
		fs = fss[i]
		k = find(fs, "syscall", "statx", "-", "dont", "basic", "deep", "expired", 1, 0, "")
		if (k != "") say(sprintf("%-7s %-34s %s [%s]", fs, "statx DONT_SYNC d1/d2/f, expired", across(k), prof_of(k)))
		k = find(fs, "syscall", "statx", "-", "dont", "basic", "deep", "expired", 1, 0, "default_permissions")
		if (k != "") say(sprintf("%-7s %-34s %s [%s]", fs, " ... with default_permissions", across(k), prof_of(k)))
		k = find(fs, "syscall", "statx", "-", "as-stat", "type,ino", "file", "expired", 1, 0, "")
		if (k != "") say(sprintf("%-7s %-34s %s [%s]", fs, "statx type,ino of a file, expired", across(k), prof_of(k)))
		k = find(fs, "deep", "statx", "-", "dont", "basic", "deep", "expired", 64, 0, "")
		if (k != "") say(sprintf("%-7s %-34s %s [%s]", fs, "deep tree DONT_SYNC, 64 files", across(k), prof_of(k)))
		ls_line(fs, "GNU ls -l expired, calls/file", "gnu-ls", "long", "as-stat", "expired", 0, 0)
		ls_line(fs, "lsx -l --dont-sync expired, c/file", "lsx", "long", "dont", "expired", 0, 0)
		ls_line(fs, "GNU ls -l cold at 10 ms/req, ms", "gnu-ls", "long", "as-stat", "cold", 10, 1)
		ls_line(fs, "GNU ls -l expired at 10 ms/req, ms", "gnu-ls", "long", "as-stat", "expired", 10, 1)
		scan_line(fs)
	}
}

function wtimes(fs, l, cache, n, d,   j, s) {
	s = ""
	for (j = 1; j <= nk; j++)
		s = s (j > 1 ? " → " : "") tcell(fs, l, cache, n, d, ks[j])
	return s
}

END {
	kernels()
	kl = ""
	for (j = 1; j <= nk; j++)
		kl = kl (j > 1 ? " → " : "") ks[j]
	print "# statx lab report\n"
	print "Started " started "; kernels: " kinfo ". " nrun + nskip + nerr \
	      " cases: " nrun + 0 " measured, " nskip + 0 " skipped (predicted " \
	      "time over the budget), " nerr + 0 " failed. `calls` counts the round trips the caller waits for " \
	      "(FUSE: every request but FORGET, BATCH_FORGET, RELEASE, " \
	      "RELEASEDIR, INTERRUPT; NFSv4: COMPOUNDs; NFSv3: RPCs). " \
	      "A difference is a kernel minus the first kernel of its version (" bases_list() ")."
	if (clocks != "")
		print "\nGuest clocks (clocksource, the others it had, CLOCK_MONOTONIC " \
		      "resolution, rate against the host's over the lane): " clocks "."
	if (nspread)
		print "\nA time `m±s`: the median of an `ls` case's runs (3 where one " \
		      "run took under 1 s) ± half their range, in ms."
	failed_section()
	delay_slopes()
	delay_table()
	version_section()
	for (i = 1; i <= nfs; i++) {
		fs = fss[i]
		print "\n## " fs
		ls_glance_table(fs, "cold")
		ls_glance_table(fs, "expired")
		ls_calls_table(fs, "cold")
		ls_calls_table(fs, "warm")
		ls_calls_table(fs, "expired")
		decided_table(fs, "cold")
		decided_table(fs, "expired")
		ls_time_table(fs, "cold")
		ls_time_table(fs, "expired")
		deep_table(fs)
		scan_table(fs)
		syscall_table(fs)
	}
	gnuplot_script()
	if (nimg) {
		print "\n## Plots\n"
		for (i = 1; i <= nimg; i++)
			print "![" img[i] "](plots/" img[i] ".svg)"
	}
	summarize()
}
