# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus for tests (sourced after tests/setup.sh and
# tests/export/lib.sh): write a config from data/prometheus-fabtop.yml with
# the test's targets, start Debian's prometheus on loopback with its storage
# in $T, wait for scrapes, query its HTTP API, stop it by pid.

# prom_require: skip the whole file unless the tools are here.
prom_require() {
	for _c in prometheus promtool curl jq python3; do
		command -v "$_c" >/dev/null || skip_all "$_c is not installed (Debian packages prometheus, curl, jq, python3)"
	done
}

# prom_free_port: a TCP port free on 127.0.0.1 now (the kernel's choice).
prom_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# prom_config OUT INTERVAL TARGET...: data/prometheus-fabtop.yml with the
# fabtop job's targets replaced, every interval set to INTERVAL and its rule
# files made absolute (so the config is the shipped one, not a test's own).
prom_config() {
	python3 - "$TOP_SRCDIR/data/prometheus-fabtop.yml" "$@" <<'PY'
import os, sys, yaml
src, out, interval, *targets = sys.argv[1:]
cfg = yaml.safe_load(open(src))
cfg["global"]["scrape_interval"] = cfg["global"]["evaluation_interval"] = interval
cfg["rule_files"] = [os.path.join(os.path.dirname(src), f) for f in cfg.get("rule_files", [])]
jobs = [j for j in cfg["scrape_configs"] if j["job_name"] == "fabtop"]
assert len(jobs) == 1, "data/prometheus-fabtop.yml must have one job named fabtop"
jobs[0]["scrape_interval"] = interval
jobs[0]["scrape_timeout"] = interval
jobs[0]["static_configs"] = [{"targets": targets}]
yaml.safe_dump(cfg, open(out, "w"), sort_keys=False)
PY
}

# prom_start CONFIG: start prometheus; sets prom_pid and prom_url once it is
# ready. Bounded: it is killed after PROM_LIFETIME seconds (default 300) even
# if the test forgets it.
prom_start() {
	_port=$(prom_free_port)
	prom_url="http://127.0.0.1:$_port"
	timeout "${PROM_LIFETIME:-300}" prometheus --config.file="$1" \
		--storage.tsdb.path="$T/prom-data" --web.listen-address="127.0.0.1:$_port" \
		--log.level=warn >"$T/prometheus.log" 2>&1 &
	prom_pid=$!
	cleanup_add "kill $prom_pid 2>/dev/null; wait $prom_pid 2>/dev/null"
	_i=0
	while [ $_i -lt 300 ]; do
		curl -fsS --max-time 2 "$prom_url/-/ready" >/dev/null 2>&1 && return 0
		kill -0 "$prom_pid" 2>/dev/null || break
		sleep 0.1
		_i=$((_i + 1))
	done
	diag "prometheus did not become ready:" "$(tail -20 "$T/prometheus.log")"
	return 1
}

# prom_stop: stop it now (the cleanup trap would too).
prom_stop() {
	kill "$prom_pid" 2>/dev/null || :
	wait "$prom_pid" 2>/dev/null || :
}

# prom_query EXPR: the JSON answer of /api/v1/query on stdout; fails on an
# HTTP error (a PromQL error is a 400 with status "error" in the body, which
# is printed all the same so the caller can show it).
prom_query() {
	curl -sS --max-time 10 -o "$T/.prom_answer" -w '%{http_code}' \
		--data-urlencode "query=$1" "$prom_url/api/v1/query" >"$T/.prom_code" || return 1
	cat "$T/.prom_answer"
	[ "$(cat "$T/.prom_code")" = 200 ]
}

# prom_value EXPR: the first value of an instant vector (empty if none).
prom_value() {
	prom_query "$1" | jq -r '.data.result[0].value[1] // empty'
}

# prom_wait_scrapes N SCRAPES SECONDS: wait until N targets of job fabtop
# are up and each has been scraped at least SCRAPES times.
prom_wait_scrapes() {
	_deadline=$(($(date +%s) + $3))
	while [ "$(date +%s)" -lt "$_deadline" ]; do
		_up=$(prom_value 'count(up{job="fabtop"} == 1)' 2>/dev/null || :)
		_min=$(prom_value 'min(count_over_time(up{job="fabtop"}[10m]))' 2>/dev/null || :)
		if [ "${_up:-0}" -ge "$1" ] && [ "${_min:-0}" -ge "$2" ]; then return 0; fi
		sleep 0.5
	done
	diag "after $3 s: $_up of $1 targets up, fewest scrapes ${_min:-0} (want $2)" \
		"$(curl -sS --max-time 5 "$prom_url/api/v1/targets" | jq -c '.data.activeTargets[] | {scrapeUrl, health, lastError}' 2>&1)"
	return 1
}

# dashboard_queries DASH INSTANCE_REGEX: every panel's expression of the
# Grafana dashboard DASH with Grafana's variables substituted
# ($__rate_interval and $__interval 15s, which spans several scrapes;
# $__range 5m; $instance the regex; $node any), one {title, ref, expr}
# JSON line each, into $T/queries.
dashboard_queries() {
	jq -c --arg inst "$2" '.panels[] | .title as $t | .targets[] |
		{title: $t, ref: .refId, expr: (.expr
			| gsub("\\$__rate_interval"; "15s") | gsub("\\$__interval"; "15s")
			| gsub("\\$__range"; "5m") | gsub("\\$instance"; $inst) | gsub("\\$node"; ".*"))}' "$1" >"$T/queries"
	assert_eq "no variable is left unsubstituted" "" "$(jq -r 'select(.expr | test("\\$")) | .expr' "$T/queries")"
}

# check_queries WHERE: each expression of $T/queries is accepted by
# Prometheus and has data; a panel whose title matches the ERE
# $MAY_BE_EMPTY need only be accepted (WHERE says where it may be empty).
check_queries() {
	while read -r _q; do
		_title=$(printf '%s' "$_q" | jq -r .title)
		_ref=$(printf '%s' "$_q" | jq -r .ref)
		_expr=$(printf '%s' "$_q" | jq -r .expr)
		if ! prom_query "$_expr" >"$T/answer"; then
			not_ok "$_title/$_ref: Prometheus accepts it"; diag "$_expr" "$(cat "$T/answer")"; continue
		fi
		_n=$(jq '.data.result | length' "$T/answer")
		if printf '%s\n' "$_title" | grep -Eqx "$MAY_BE_EMPTY"; then
			assert_eq "$_title/$_ref: accepted ($_n series; may be empty $1)" success "$(jq -r .status "$T/answer")"
		elif [ "$_n" -gt 0 ]; then
			ok "$_title/$_ref: $_n series"
		else
			not_ok "$_title/$_ref: has data"; diag "$_expr" "$(cat "$T/answer")"
		fi
	done <"$T/queries"
}
