"""help() on every public item shows its whole docstring, and the docstrings are real ones:
what the item does, its arguments, what it returns, what it raises, and an example that runs.
See: #21

The public surface is the one test_arguments.py enumerates (``public_surface``).
"""

import doctest
import inspect
import pydoc
import re
import subprocess
import sys
from pathlib import Path

import pytest

import dancecard
from test_arguments import public_surface


def resolve(key):
    """The object of a public name such as ``dancecard.Problem.count``."""
    parts = key.split(".")
    obj = dancecard
    for part in parts[1:]:
        obj = getattr(obj, part)
    return obj


def is_data(obj):
    """A type alias or a constant: documented where it is defined, not by its own __doc__."""
    if type(obj).__module__ == "typing":
        return True
    return not (callable(obj) or inspect.isclass(obj) or isinstance(obj, property)
                or inspect.isdatadescriptor(obj) or inspect.isgetsetdescriptor(obj))


def parameters(obj):
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p for p in signature.parameters if p not in ("self", "cls", "args", "kwargs")]


SURFACE = sorted(k for k in public_surface() if not is_data(resolve(k)))
# Top-level functions and classes: the pages a newcomer reads first.
# (dancecard._native._problem_from_state is for pickles only: documented, without an example.)
TOP = [k for k in SURFACE if not k.rsplit(".", 1)[1].startswith("_")
       and (k.count(".") == 1
            or k.startswith(("dancecard._native.", "dancecard.queens.", "dancecard.slide.",
                             "dancecard.sudoku.")) and k.count(".") == 2)]


def test_the_surface_is_found():
    assert {"dancecard.tile", "dancecard.Stats", "dancecard.Problem.count",
            "dancecard.queens.count", "dancecard.Stats.nodes"} <= set(SURFACE)
    assert len(SURFACE) > 80


@pytest.mark.parametrize("key", SURFACE)
def test_every_public_item_has_a_docstring(key):
    obj = resolve(key)
    doc = inspect.getdoc(obj) or ""
    assert len(doc) >= 15, f"{key}: no real docstring: {doc!r}"
    assert not doc.startswith("Alias for field number"), key
    # help() renders it, whole.
    page = pydoc.render_doc(obj, renderer=pydoc.plaintext)
    for line in doc.splitlines():
        assert line.strip() in page, f"{key}: help() leaves out {line!r}"


@pytest.mark.parametrize("key", [k for k in SURFACE if k not in TOP and parameters(resolve(k))])
def test_methods_document_their_arguments(key):
    obj = resolve(key)
    doc = inspect.getdoc(obj)
    for name in parameters(obj):
        assert name in doc, f"{key}: argument {name!r} is not documented"


@pytest.mark.parametrize("key", TOP)
def test_functions_and_classes_have_full_docstrings(key):
    obj = resolve(key)
    doc = inspect.getdoc(obj)
    assert len(doc) >= 300, f"{key}: {len(doc)} characters"
    assert "Example" in doc and ">>>" in doc, f"{key}: no example"
    if inspect.isroutine(obj):
        assert "Returns" in doc, f"{key}: does not say what it returns"
        assert "Raises" in doc, f"{key}: does not say what it raises"
        for name in parameters(obj):
            assert name in doc, f"{key}: argument {name!r} is not documented"
    # help() does not send the reader elsewhere for what the item does.
    assert "(see `dancecard.tile`)" not in doc


@pytest.mark.parametrize("key", [k for k in SURFACE if ">>>" in (inspect.getdoc(resolve(k)) or "")])
def test_examples_run(key):
    obj = resolve(key)
    test = doctest.DocTestParser().get_doctest(inspect.getdoc(obj), {}, key, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{key}: its example fails (see the output above)"


@pytest.mark.parametrize("module", [dancecard, dancecard.queens, dancecard.slide, dancecard.sudoku],
                         ids=lambda m: m.__name__)
def test_module_examples_run(module):
    assert ">>>" in module.__doc__
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


# The pages' examples (#46): each ```python block of docs/python.md and of the package's
# README runs, from a directory where `testdata/` is the repository's (as from its root), and
# README's one-line example prints what it says.
REPO = Path(__file__).resolve().parents[3]
PAGES = [REPO / "docs" / "python.md", REPO / "crates" / "python" / "README.md"]


def python_blocks(page):
    text = page.read_text()
    return re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_the_pages_python_blocks_run(page, tmp_path, monkeypatch, capsys):
    blocks = python_blocks(page)
    assert blocks, f"{page}: no python block"
    (tmp_path / "testdata").symlink_to(REPO / "testdata")
    monkeypatch.chdir(tmp_path)
    # One namespace for a page: a later block uses what an earlier one imported.
    namespace = {"__name__": "__docs__"}
    for block in blocks:
        exec(compile(block, str(page), "exec"), namespace)


def test_the_readme_one_liner_prints_what_it_says():
    readme = (REPO / "README.md").read_text()
    line = re.search(r"^python3 -c '(.*)'\s+# (\S+)$", readme, re.M)
    assert line, "README.md has no python3 -c example"
    out = subprocess.run([sys.executable, "-c", line.group(1)], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == line.group(2)
