"""Reading PR titles and bodies: the ground floor every stage reads them through.

`titles` (tags, prefixes, conventional types, cleaned text), `wrappers` (revert and
reland wrappers), `parts` (part markers and series keys), `reverts` (which earlier PR a
revert or reland undoes or redoes), `stacks` (ghstack stacks), `spelling` (how the
titles write words and names), `patterns` (the shared pieces). Pure: imports only the models.
"""

from .name_uses import defined_names, used_names
from .parts import series_key, series_label, series_name, series_stem, strip_part_markers
from .patterns import comparable, normalize_tag
from .reverts import Pairing, abbreviated_reverts, kind_of, pair_all, quoted_title
from .spelling import Spelling, TitleWords
from .stacks import Groups, series_links, stack_groups, stack_numbers
from .titles import CleanTitle, TitleInfo, clean_title, is_branch_merge, parse_title, strip_noise
from .wrappers import is_reland, is_revert, reland_rest, revert_rest, undoes_a_revert

__all__ = [
    "CleanTitle",
    "Groups",
    "Pairing",
    "Spelling",
    "TitleInfo",
    "TitleWords",
    "abbreviated_reverts",
    "clean_title",
    "comparable",
    "defined_names",
    "is_branch_merge",
    "is_reland",
    "is_revert",
    "kind_of",
    "normalize_tag",
    "pair_all",
    "parse_title",
    "quoted_title",
    "reland_rest",
    "revert_rest",
    "series_key",
    "series_label",
    "series_links",
    "series_name",
    "series_stem",
    "stack_groups",
    "stack_numbers",
    "strip_noise",
    "strip_part_markers",
    "undoes_a_revert",
    "used_names",
]
