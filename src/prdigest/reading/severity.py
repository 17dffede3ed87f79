"""What a fix spared its users, in the PR's own words: a security hole or results that
were silently wrong weigh most, a crash, a hang or a leak less. Editors lead with such
fixes; a fix that only tidies an error message is not one of them.

Read from the title and the body's prose (never its test plan or logs: a test that
"crashes" before the fix is how it was checked, not what users saw).
"""

from __future__ import annotations

import re
from enum import IntEnum

from .pr_body import read_body


class Severity(IntEnum):
    NONE = 0
    FAILURE = 1  # a crash, a hang, a deadlock, a leak
    HARM = 2  # a security hole, results silently wrong, data lost or corrupted


_HARM = re.compile(
    r"(?i)\b(?:silent(?:ly)?\s+(?:\w+\s+)?(?:wrong|incorrect|incomplete|corrupt\w*|drop\w*|"
    r"ignor\w*|discard\w*|lost|los(?:e|es|ing)|skip\w*)|wrong (?:results?|outputs?|answers?|"
    r"gradients?|values?)|incorrect (?:results?|outputs?|gradients?|values?)|data (?:loss|"
    r"corruption)|corrupt(?:s|ed|ion|ing)?\b|security (?:fix|issue|hole|vulnerabilit\w*|"
    r"hardening)|vulnerab\w*|CVE-\d{4}-\d+|GHSA-[\w-]+|attacker\w*|malicious|arbitrary "
    r"(?:code|file)|path traversal|hijack\w*)"
)
_FAILURE = re.compile(
    r"(?i)\b(?:crash(?:es|ed|ing)?|segfault\w*|segmentation fault|deadlock\w*|hangs?|hanging|"
    r"memory leaks?|leaks? memory|out of memory|OOMs?|panic(?:s|ked)?)\b"
)


def severity(title: str, body: str) -> Severity:
    """The worst the PR says users suffered before it."""
    prose = [title, *(read_body(body).prose if body else [])]
    if any(_HARM.search(text) for text in prose):
        return Severity.HARM
    if any(_FAILURE.search(text) for text in prose):
        return Severity.FAILURE
    return Severity.NONE
