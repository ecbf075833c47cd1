"""The README's example output is what the command really prints."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from tactica.cli import app

from .conftest import ROOT


def test_readme_example_output_is_true() -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n\$ tactica replay (\S+) --script (\S+)\n(.*?)```", readme, re.S)
    assert block is not None
    encounter, script, shown = block.groups()
    result = CliRunner().invoke(app, ["replay", str(ROOT / encounter), "--script", str(ROOT / script)])
    assert result.exit_code == 0
    actual = [line.rstrip() for line in result.output.splitlines()]
    expected = []
    for line in shown.splitlines():
        if line.startswith("  (") or line.startswith("$"):
            break  # "(then a table ...)" and the next command end the shown output
        expected.append(line.rstrip())
    assert actual[: len(expected)] == expected


def test_embedding_guide_example_runs() -> None:
    import os

    guide = (ROOT / "docs" / "embedding.md").read_text()
    code = re.search(r"```python\n(.*?)```", guide, re.S)
    assert code is not None
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace: dict[str, object] = {}
        exec(compile(code.group(1), "embedding.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    enc = namespace["enc"]
    assert enc.log[-1].do == "move"  # type: ignore[attr-defined]
