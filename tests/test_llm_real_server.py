"""The real llama-server answers as the LLM writer expects (infrastructure check).

These pin llama-server's behaviour that the writer relies on: a schema-constrained
answer to `response_format: json_schema`, and the exact refusal of a prompt longer
than the context. They run SmolLM2-135M on the CPU: seconds, not minutes.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import httpx

import llm_real
from llm_real import RealServer

# The session's real servers (pytest finds fixtures by the names bound here).
llama_binary = llm_real.llama_binary
llama_server = llm_real.llama_server
llama_server_2048 = llm_real.llama_server_2048

VERDICT = {
    "type": "object",
    "properties": {"verdict": {"type": "string", "enum": ["merged", "reverted"]}},
    "required": ["verdict"],
    "additionalProperties": False,
}


def _chat(server: RealServer, text: str, **params: object) -> httpx.Response:
    body = {
        "model": server.model,
        "messages": [
            {"role": "system", "content": "Answer with JSON only."},
            {"role": "user", "content": text},
        ],
        "temperature": 0,
        **params,
    }
    return httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=300)


def test_json_schema_answer_follows_the_schema(llama_server: RealServer) -> None:
    reply = _chat(
        llama_server,
        "PR #17331 'Arm: format passes' landed on main. Was it merged or reverted?",
        max_tokens=64,
        response_format={
            "type": "json_schema",
            "json_schema": {"name": "verdict", "strict": True, "schema": VERDICT},
        },
    )
    assert reply.status_code == 200, reply.text
    body = reply.json()
    choice = body["choices"][0]
    assert choice["finish_reason"] == "stop"
    # Grammar-constrained: a 135M model can only write one of the two objects.
    assert json.loads(choice["message"]["content"]) in (
        {"verdict": "merged"},
        {"verdict": "reverted"},
    )
    assert body["usage"]["prompt_tokens"] > 0 and body["usage"]["completion_tokens"] > 0


def test_a_daemon_dies_with_the_process_it_watches(llama_binary: str, tmp_path: Path) -> None:
    """A test session killed outright (SIGKILL: no fixture teardown) must not leave a server
    spinning: `serve --watch-pid` ends the server within seconds of the watched process."""
    watched = subprocess.Popen(["sleep", "600"])
    pid_file = tmp_path / "watched.pid"
    args = ["bash", str(llm_real.SCRIPT), "serve", "--ctx", "512", "--daemon"]
    args += ["--pid-file", str(pid_file), "--watch-pid", str(watched.pid)]
    subprocess.run(args, check=True, capture_output=True, timeout=llm_real.START_TIMEOUT)
    server = int(pid_file.read_text())
    try:
        os.kill(server, 0)  # serving
        watched.kill()
        watched.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _alive(server):
            time.sleep(0.2)
        assert not _alive(server), "llama-server outlived the process it watched"
    finally:
        subprocess.run(["bash", str(llm_real.SCRIPT), "stop", "--pid-file", str(pid_file)])


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for init to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_a_prompt_over_the_context_is_refused_with_its_size(
    llama_server_2048: RealServer,
) -> None:
    props = httpx.get(f"{llama_server_2048.root}/props", timeout=30).json()
    assert props["default_generation_settings"]["n_ctx"] == 2048
    long_text = " ".join(f"PR #{n} fixes the Arm backend's {n % 7} passes." for n in range(400))
    reply = _chat(llama_server_2048, long_text, max_tokens=16)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["type"] == "exceed_context_size_error"
    assert error["n_ctx"] == 2048 and error["n_prompt_tokens"] > 2048
    assert "exceeds the available context size (2048 tokens)" in error["message"]
