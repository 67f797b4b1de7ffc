"""The app's page list in the sidebar, drawn from the same st.Page objects st.navigation routes (app.py).

st.navigation's own list is hidden (its markup fails axe's ``list`` rules, issue 22): each section's name is a
caption and each page an st.page_link, a plain link whose title and icon come from its st.Page.

A hidden components-v2 element adds page-wide rules (NAV_CSS), closes a phone's sidebar once one of its links
is followed, marks the shown page's link with ``aria-current="page"`` (NAV_JS), gives every focused page link
an outline (WCAG 2.4.7), and hides a collapsed sidebar's content so Tab does not walk through links out of
sight (WCAG 2.4.11, 2.4.3). Why each of these: docs/architecture.md, scatter_ui/pages/navigation.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

import streamlit as st

import scatter_core as sc

from scatter_ui.pages import explorer

STYLE_KEY = "scatter_explorer_nav_style"
NAV_CSS = (f".st-key-{STYLE_KEY} {{ display: none; }}\n"
           "a[data-testid='stPageLink-NavLink']:focus-visible { outline: 2px solid currentColor; "
           "outline-offset: -2px; }\n"
           # a collapsed sidebar is only moved off screen: hidden, its links and widgets leave the Tab order
           # (after its slide-out), so focus never lands on a control no one can see
           "[data-testid='stSidebar'][data-collapsed='true'] [data-testid='stSidebarContent'] "
           "{ visibility: hidden; transition: visibility 0s linear 0.3s; }\n")
# On a narrow screen the sidebar covers the page. Streamlit's own page list closes it after a link is
# followed there (on a phone); an st.page_link does not, so this closes it (as its ‹‹ button would) when a
# sidebar page link is followed by click, tap or Enter while the window is at most 768 px wide (the width
# below which Streamlit lays the sidebar over the page). One listener per document, kept for the session.
NAV_JS = """const SIDEBAR_LINKS = "[data-testid=stSidebar] a[data-testid=stPageLink-NavLink]";

// a link's page is told by its label, the page's title (unique in the list); not by its href, which for the
// default page is the address shown, whatever page that is
function label(link) {
  const text = link.querySelector("[data-testid=stMarkdownContainer]") || link;
  return (text.textContent || "").trim();
}

function markCurrent(doc) {
  const current = doc.scatterExplorerCurrent;
  for (const link of doc.querySelectorAll(SIDEBAR_LINKS)) {
    if (current !== undefined && label(link) === current) {
      if (link.getAttribute("aria-current") !== "page") link.setAttribute("aria-current", "page");
    } else if (link.hasAttribute("aria-current")) {
      link.removeAttribute("aria-current");
    }
  }
}

export default function (component) {
  const doc = component.parentElement.ownerDocument;
  const data = component.data || {};
  if (typeof data.title === "string") doc.scatterExplorerCurrent = data.title;
  markCurrent(doc);
  if (doc.scatterExplorerNav) return;
  doc.scatterExplorerNav = true;
  // Streamlit redraws the sidebar's links on every run (and may reuse a link element for another page):
  // mark the current page's link again whenever they change
  new doc.defaultView.MutationObserver(() => markCurrent(doc)).observe(doc.body, { childList: true, subtree: true });
  doc.addEventListener("click", (event) => {
    const link = event.target instanceof Element
      && event.target.closest(SIDEBAR_LINKS);
    if (!link || doc.defaultView.innerWidth > 768) return;
    const close = doc.querySelector("[data-testid=stSidebarCollapseButton] button");
    if (close) close.click();
  });
}
"""
_style = None


def nav_helper(current: st.Page | None = None) -> None:
    """The hidden element whose page-wide style outlines a keyboard-focused page link and takes a collapsed
    sidebar out of the Tab order, and whose script closes a narrow screen's sidebar after a link in it and marks
    the sidebar's link to ``current`` (the shown page; its link is found by its title) with
    ``aria-current="page"``: Streamlit shows that link only in bold on a tinted background, and says nothing
    to a screen reader."""
    global _style
    if _style is None:
        _style = st.components.v2.component("scatter_explorer.nav_style", html="<span></span>", css=NAV_CSS,
                                            js=NAV_JS, isolate_styles=False)
    _style(key=STYLE_KEY, data=None if current is None else {"current": current.url_path, "title": current.title})


def _spec(family: str) -> None:
    """Run the spec page of ``family`` (imported when first shown: a deep link to another page does not load the
    spec pages' framework map, tables and figures)."""
    from scatter_ui.pages import spec as spec_page

    spec_page.render(family)


def family_pages() -> tuple[list[st.Page], list[st.Page]]:
    """Every family record's explorer page and spec page, in record order: callable st.Pages, built from the
    records alone (URL paths ``<slug>`` and ``spec-<slug>``, titles and icons from the record), so a new family
    gets both pages with no page file and no line in app.py."""
    families = list(sc.FAMILIES.values())
    return ([explorer.page(f) for f in families],
            [st.Page(partial(_spec, f.name), title=f.spec_page_title, icon=":material/history_edu:",
                     url_path=f"spec-{f.slug}") for f in families])


def _switch_to(target: st.Page) -> None:
    """An alias's page: the real page, keeping the link's query string (a case, a step, an attribute)."""
    st.switch_page(target, query_params=st.query_params.to_dict())


def kebab_aliases(pages: Mapping[str, Sequence[st.Page]]) -> list[st.Page]:
    """A hidden page for each page whose URL path has an underscore (``slice_scatter``, ``spec-tensor_scatter``),
    at the kebab-case spelling the other paths use (``slice-scatter``), which switches to the real page. The real
    paths stay as they are (links to them exist); the aliases are routed by st.navigation, never listed."""
    routed = {p.url_path for entries in pages.values() for p in entries}
    aliases = []
    for entries in pages.values():
        for page in entries:
            kebab = page.url_path.replace("_", "-")
            if kebab != page.url_path and kebab not in routed:
                aliases.append(st.Page(partial(_switch_to, page), title=f"{page.title} ({kebab})", url_path=kebab,
                                       visibility="hidden"))
    return aliases


def sidebar_links(pages: Mapping[str, Sequence[st.Page]], current: st.Page | None = None) -> None:
    """Every page of ``pages`` (section name -> its st.Page objects, as given to st.navigation) as a link
    at the top of the sidebar, under its section's name; ``current`` (what st.navigation returned) is the
    shown page, whose link gets ``aria-current="page"``. Call it before the page runs."""
    with st.sidebar:
        for section, entries in pages.items():
            st.caption(section)
            for page in entries:
                st.page_link(page, width="stretch")
    # in the main area, after the player's warm-up element (the sidebar holds only the links)
    nav_helper(current)
