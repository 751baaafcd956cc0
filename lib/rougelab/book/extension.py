"""The book's Sphinx extension: formulas as MathML, each page's run facts, and its source notebook.

* ``mathml``, an HTML math renderer: TeX becomes MathML (``latex2mathml``) when the page is built, and
  browsers draw it natively, so no MathJax loads from the network.
* ``html-page-context``: the page's run facts (``rougelab_runs``), the package version and the data pins
  for the footer template ``run-facts.html``; and, in the book theme's download menu, the executed
  notebook (the page's own source) beside the notebook as committed (``rougelab_sources``).
"""
from __future__ import annotations

from docutils import nodes


def _mathml(tex: str, display: bool) -> str:
    from latex2mathml.converter import convert

    return convert(tex.strip(), display="block" if display else "inline")


def visit_inline_math(translator, node) -> None:
    translator.body.append(_mathml(node.astext(), display=False))
    raise nodes.SkipNode


def visit_block_math(translator, node) -> None:
    equations = [part for part in node.astext().split("\n\n") if part.strip()]
    number = translator.builder.env.get_domain("math").get_equation_number_for(node["label"]) \
        if node.get("label") else None
    label = f'<span class="eqno">({number})</span>' if number else ""
    html = "".join(_mathml(tex, display=True) for tex in equations)
    translator.body.append(f'<div class="math notranslate nohighlight">{label}{html}</div>\n')
    raise nodes.SkipNode


def page_context(app, pagename, templatename, context, doctree) -> None:
    """Run facts for the footer, and the source notebook in the download menu."""
    config = app.config
    context["rougelab_run"] = config.rougelab_runs.get(pagename, "")
    context["rougelab_version"] = config.rougelab_version
    context["rougelab_data"] = config.rougelab_data
    source = config.rougelab_sources.get(pagename)
    menu = next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)
    if menu is None:
        return
    for button in menu["buttons"]:
        if button.get("label") == "download-source-button":
            button.update(text="executed .ipynb", tooltip="Download the notebook as it ran, with its outputs")
    if source:
        menu["buttons"].insert(1, {"type": "link", "url": context["pathto"](source, 1), "text": "source .ipynb",
                                   "tooltip": "Download the notebook without outputs, to run it yourself",
                                   "icon": "fas fa-file-code", "label": "download-notebook-source-button"})


def setup(app):
    app.add_html_math_renderer("mathml", (visit_inline_math, None), (visit_block_math, None))
    for name, default in [("rougelab_runs", {}), ("rougelab_sources", {}), ("rougelab_version", ""),
                          ("rougelab_data", [])]:
        app.add_config_value(name, default, "html")
    app.connect("html-page-context", page_context, priority=600)  # after the theme fills its menu (501)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
