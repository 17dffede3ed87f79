"""An area whose every theme verification dropped is asked once more, told which
sentences were dropped and which of their words no PR writes; the second answer is
verified like the first, and the re-ask is never repeated (a fake server on 127.0.0.1,
the real executorch week 2026-W07)."""

from __future__ import annotations

import json
import re

from fakes.llm_server import FakeLLMServer, Prompt, good_responder, parse_prompt, title_of
from llm_helpers import assert_truthful, write
from prdigest.write.llm.repair import MAX_REASKS
from prdigest.write.llm.schemas import RETRY_SENTENCE_PATTERN
from prdigest.write.llm.verify import in_third_person

PADDING = "ensuring seamless synergy, holistic alignment and frictionless velocity for stakeholders"
RETRY = "was not published"


def padded(prompt: Prompt, summary: str = "{Padding}, {title}.") -> str:
    """A small model's first answer: each PR's title with words no PR writes (before it:
    a padding clause after it is taken out, see below)."""
    themes = [
        {
            "area": area,
            "name": title_of(items[0][1])[:40].strip(),
            "summary": summary.format(
                Padding=PADDING[:1].upper() + PADDING[1:],
                padding=PADDING,
                title=title_of(items[0][1]).rstrip("."),
            ),
            "prs": [n for n, _ in items[:3]],
        }
        for area, items in prompt.areas.items()
    ]
    return json.dumps({"themes": themes})


def pads_then_listens(prompt: Prompt) -> str:
    if prompt.is_takeaway or RETRY in prompt.user:
        return good_responder(prompt)
    return padded(prompt)


def always_pads(prompt: Prompt) -> str:
    return good_responder(prompt) if prompt.is_takeaway else padded(prompt)


def area_requests(server: FakeLLMServer) -> list[str]:
    users = [m["content"] for body in server.requests for m in body["messages"][1:2]]
    return [u for u in users if "PRs of the area" in u]


def area_named(request: str) -> list[str]:
    return re.findall(r"^PRs of the area (.+):$", request, re.M)


def test_an_area_whose_themes_were_all_dropped_is_asked_again_and_written(store, context):
    with FakeLLMServer(pads_then_listens) as server:
        markdown, writer, _, _ = write(store, context, server)
        sent = server.count
        again, _, _, _ = write(store, context, server)
    assert writer == "llm"
    asked = area_requests(server)
    first = [u for u in asked if RETRY not in u]
    retries = [u for u in asked if RETRY in u]
    assert len(retries) == min(MAX_REASKS, len(first))  # the largest areas, once each
    assert any("PRs of the area Backends: Arm:" in r for r in retries)  # the week's largest
    # the re-ask quotes what was dropped and the words no PR writes
    assert all(PADDING[1:] in r and '"synergy"' in r and '"holistic"' in r for r in retries)
    # and shows the form asked, with the area's first PR title as a sentence
    arm = next(r for r in retries if "PRs of the area Backends: Arm:" in r)
    title = title_of(next(line for line in arm.splitlines() if line.startswith("#")))
    assert f'as in "{title[0].upper()}{title[1:].rstrip(".")}."' in arm
    # and, beside each dropped sentence, the words its PR does write: its title
    assert f'"holistic", "alignment", "frictionless"; its PR says "{title}".' in arm
    assert "synergy" not in markdown
    # and gives its sentences less room: a small model pads a long one again
    for body in (b for b in server.requests if "PRs of the area" in str(b["messages"])):
        schema = body["response_format"]["json_schema"]["schema"]
        pattern = schema["properties"]["themes"]["items"]["properties"]["summary"]["pattern"]
        retried = RETRY in body["messages"][1]["content"]
        assert (pattern == RETRY_SENTENCE_PATTERN) == retried
    sections = re.split(r"^### \d+\. ", markdown, flags=re.M)[1:]
    by_heading = {s.split("\n", 1)[0]: s for s in sections}
    for name in (n for r in retries for n in area_named(r) if n in by_heading):
        assert "_Themes from prdigest's analysis" not in by_heading[name], name
    # an area not asked again says its themes are prdigest's (why: in the warnings)
    assert "\n_Themes from prdigest's analysis._\n" in markdown
    assert_truthful(markdown, store, context)
    assert server.count == sent and again == markdown  # the re-asks are cached too


def test_the_re_ask_is_bounded_and_its_answer_is_verified_like_the_first(store, context):
    with FakeLLMServer(always_pads) as server:
        markdown, writer, warnings, _ = write(store, context, server)
    asked = area_requests(server)
    retries = [u for u in asked if RETRY in u]
    assert len(retries) == MAX_REASKS < len(asked) - len(retries)  # never a third ask
    assert server.count == len(asked)  # no key-takeaway request: no theme of the model survived
    assert writer == "deterministic" and "synergy" not in markdown
    assert "no theme the model wrote survived verification" in warnings[0]


def pads_a_clause(prompt: Prompt) -> str:
    """What Qwen2.5-Coder-1.5B writes most: the PR's title, then a clause no PR says
    ("…, ensuring compatibility and stability")."""
    return good_responder(prompt) if prompt.is_takeaway else padded(prompt, "{title}, {padding}.")


def test_a_padding_clause_is_taken_out_and_the_grounded_rest_published(store, context):
    with FakeLLMServer(pads_a_clause) as server:
        markdown, writer, _, notes = write(store, context, server)
    assert writer == "llm"
    assert not [u for u in area_requests(server) if RETRY in u]  # nothing to ask again
    assert "synergy" not in markdown and "_Themes from prdigest's analysis" not in markdown
    arm = next(p for p in map(parse_prompt, server.requests) if "Backends: Arm" in p.areas)
    title = title_of(arm.areas["Backends: Arm"][0][1]).rstrip(".")
    # the title as the model wrote it, opening with its verb in the third person as every
    # line of the digest does, and its citations
    assert f"{in_third_person(title)} ([PR#" in markdown
    assert "padding clause taken out" in notes[1]
    assert_truthful(markdown, store, context)


VACUOUS = "These changes are part of the week"


def vacuous_then_padded(prompt: Prompt) -> str:
    """A sentence that says nothing, padded: without its padding it still says nothing."""
    if prompt.is_takeaway:
        return good_responder(prompt)
    return padded(prompt, VACUOUS + ", {padding}.")


def test_a_vacuous_sentence_without_its_padding_is_still_dropped(store, context):
    with FakeLLMServer(vacuous_then_padded) as server:
        markdown, writer, warnings, _ = write(store, context, server)
    assert VACUOUS not in markdown and "synergy" not in markdown
    assert writer == "deterministic"  # no theme of the model survived
    assert "no theme the model wrote survived verification" in warnings[0]
