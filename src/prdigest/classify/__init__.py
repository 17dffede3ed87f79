"""Classification: every PR gets an area and a kind, and the rule (or model) that decided.

    from prdigest.classify import profile_for
    profile = profile_for("pytorch/executorch", config)
    labels = profile.classify_all(prs)          # same order as prs

Rules are data (built-in profiles in `classify/profiles/*.toml`, user rules in
prdigest.toml); see docs/classification.md.
"""

from __future__ import annotations

from ..reading import TitleInfo, normalize_tag, parse_title
from .base import AreaKindModel, ModelPrediction, Profile
from .generic import GenericProfile, derive_areas
from .profile_specs import builtin_profile_for_repo, builtin_profile_names, parse_profile_text
from .profiles import load_profile, profile_for
from .rule_tables import normalize_kind, normalize_name
from .rules import AreaRule, Decision, KindRule, RuleEngine

__all__ = [
    "AreaKindModel",
    "AreaRule",
    "Decision",
    "GenericProfile",
    "KindRule",
    "ModelPrediction",
    "Profile",
    "RuleEngine",
    "TitleInfo",
    "builtin_profile_for_repo",
    "builtin_profile_names",
    "derive_areas",
    "load_profile",
    "normalize_kind",
    "normalize_name",
    "normalize_tag",
    "parse_profile_text",
    "parse_title",
    "profile_for",
]
