"""Sphinx extension: page assets as a reader's browser needs them.

MathJax on every page (formulas appear in the navigation of every page), one copy of each
inline script per page, and the repository, issue, Binder and Colab buttons only when the
repository's URL is set (``repository.url`` in ``_config.yml``, the one setting).

With jupyter-book 1.0.4, sphinx-thebe's and sphinx-togglebutton's configuration scripts reach
every page twice (``const THEBE_JS_URL`` declared twice is a SyntaxError in the reader's
browser console). This drops exact duplicates of a page's script entries, keeping the first,
before the page is rendered. The browser suite (``tests/browser``) fails on any console error,
so removing this extension while the duplication persists is caught there.
"""

from __future__ import annotations


def _key(script) -> tuple:
    # the second copies carry filename "" where the first have None: compare what renders
    attrs = tuple(sorted((k, str(v)) for k, v in getattr(script, "attributes", {}).items()))
    return (str(script) or "", attrs) if isinstance(script, str) else (script.filename or "", attrs)


def dedupe_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        key = _key(script)
        if key not in seen:
            seen.add(key)
            kept.append(script)
    scripts[:] = kept  # in place: handlers after this one (mathjax) append to the same list


#: A placeholder URL counts as unset: no button may point at it.
PLACEHOLDERS = ("OWNER/REPO", "<owner>")
REPOSITORY_BUTTONS = ("use_repository_button", "use_issues_button")
LAUNCH_KEYS = ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url", "thebe")


def repository_url(options: dict) -> str:
    """The repository's URL from the theme options, ``""`` when unset or a placeholder."""
    url = str(options.get("repository_url") or "").strip()
    return "" if not url or any(p in url for p in PLACEHOLDERS) else url


def repository_buttons(app, config) -> None:
    """Show the repository and issue buttons and the launch buttons only with a repository URL."""
    options = config.html_theme_options
    if repository_url(options):
        for key in REPOSITORY_BUTTONS:
            options.setdefault(key, True)
        return
    options["repository_url"] = ""
    for key in (*REPOSITORY_BUTTONS, "use_edit_page_button", "use_source_button"):
        options[key] = False
    launch = dict(options.get("launch_buttons") or {})
    for key in LAUNCH_KEYS:
        launch.pop(key, None)
    options["launch_buttons"] = launch


def setup(app):
    app.connect("config-inited", repository_buttons, priority=100)
    # Chapter titles with formulas ($L^p$) appear in every page's navigation: load MathJax on
    # every page, not only on pages whose body has equations.
    app.set_html_assets_policy("always")
    # early: html-page-context stops at the first handler that returns a template name
    app.connect("html-page-context", dedupe_scripts, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
