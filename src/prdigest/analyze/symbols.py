"""Code symbols in PR titles (`q8ta_conv2d`, `aten.neg.default`, `RemoveNoopPass`).

They make strong theme names, and the writer puts them in backticks.
"""

from __future__ import annotations

import re

# Brand and model names that look like CamelCase identifiers but are prose.
_NOT_SYMBOLS = frozenset(
    {
        "executorch",
        "pytorch",
        "github",
        "coreml",
        "mediatek",
        "openvino",
        "huggingface",
        "torchao",
        "litert",
        "webgpu",
        "javascript",
        "typescript",
        "macos",
        "youtube",
        "deepseek",
        "mobilenet",
        "mobilenetv2",
        "mobilenetv3",
        "resnet",
        "smollm",
        "smollm2",
        "torchtune",
        "torchchat",
        "torchvision",
        "torchaudio",
        "torchtitan",
        "powershell",
        "gitlab",
        "codeql",
        "pybind",
        "openai",
        "deit",
        "efficientnet",
        "llava",
        "phi",
        "gemma",
        "voxtral",
        "qwen",
        "llama",
        "xnnpack",
        "vulkan",
        "ethos",
        "devtools",
        "etdump",
        "etrecord",
        "neutronir",
        "neutron",
        "cortex",
        "arm",
        "nvidia",
        "intel",
        "apple",
        "metal",
        "cuda",
        "rocm",
        "fbcode",
        "fbsource",
        "sentencepiece",
        "tiktoken",
        "mlx",
        "onnx",
        "tosa",
        "vgf",
        "bfloat",
        "readme",
        "pypi",
        "conda",
        "docker",
        "ubuntu",
        "windows",
        "linux",
        "android",
        "ios",
        "iphone",
        "ipad",
        "lora",
        "qlora",
        "moe",
        "nvfp4",
        "mxfp8",
        "mxfp4",
        "float8",
    }
)

_FILE_EXT = r"(?:py|pyi|cpp|cc|c|h|hpp|mm|m|cu|cuh|metal|glsl|yml|yaml|txt|md|rst|sh|json|toml|cmake|bzl|bazel|ini|cfg|ts|js)"

SYMBOL = re.compile(
    r"""
    (?<![\w`./:-])
    (?:
        [A-Za-z_][\w-]*(?:/[\w.-]+)+/?               # a path: backends/arm/_passes
      | [A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+(?:\(\))?  # dotted: aten.neg.default, torch.compile()
      | _*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\(\))?  # snake_case, PackedInt8_4C1W
      | _[A-Za-z][A-Za-z0-9]+                        # _private
      | [a-z]+[0-9]*(?:[A-Z][a-z0-9]+)+              # camelCase
      | [A-Z][a-z0-9]+(?:[A-Z]+[a-z0-9]*){2,}        # CamelCase with 3+ humps
      | [A-Z][a-z0-9]+[A-Z][a-z0-9]*[A-Z]?[a-z0-9]*(?=\b)  # CamelCase with 2 humps
      | \w+\(\)                                      # call()
      | [a-z][a-z0-9]*(?:_[a-z0-9]+)*_(?![\w])        # trailing underscore: quantize_, add_
    )
    (?![\w`/-])
    """,
    re.VERBOSE,
)

_DOTTED_PROSE = re.compile(r"(?i)^(?:e\.g|i\.e|etc|vs|v\d.*|n\.b)$")


def is_symbol(token: str) -> bool:
    """Whether a SYMBOL match is really code and not prose (`e.g`, `ExecuTorch`, `fp16/bf16`)."""
    if _DOTTED_PROSE.match(token):
        return False
    base = token.lower().rstrip("()")
    if base in _NOT_SYMBOLS:
        return False
    if "/" in token:
        # `fp16/bf16`, `CI/CD` are prose; real paths have depth, a file name or an underscore
        return (
            token.count("/") >= 2
            or "_" in token
            or re.search(rf"\.{_FILE_EXT}$", token) is not None
        )
    if "." in token and "::" not in token:
        parts = token.rstrip("()").split(".")
        if any(len(p) < 2 for p in parts):
            return False
        if re.fullmatch(rf"[\w-]+\.{_FILE_EXT}", token):
            return True
    if re.fullmatch(r"[A-Z][a-z0-9]+[A-Z][a-z0-9]*", token) and len(token) < 6:
        return False
    return True


def find_symbols(text: str) -> list[str]:
    """Code symbols outside existing backtick spans, in order of appearance, unique."""
    seen: dict[str, None] = {}
    for part_index, part in enumerate(text.split("`")):
        if part_index % 2 == 1:  # inside `code`: the author already marked it
            token = part.strip()
            if token and len(token) <= 60:
                seen.setdefault(token, None)
            continue
        for match in SYMBOL.finditer(part):
            token = match.group(0).rstrip(".-")
            if is_symbol(token):
                seen.setdefault(token, None)
    return list(seen)
