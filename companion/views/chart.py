"""The running-totals chart as an accessible SVG drawn by pygal (no script, no inline style): the
review chart page and a person's page draw it; its stylesheet is served by the review views."""
from __future__ import annotations

import functools
import unicodedata
import xml.etree.ElementTree as ET

from markupsafe import Markup

from ..engine import ENGINES

# Okabe–Ito: distinguishable with every common colour-vision deficiency; each line also gets its own dash.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "8,4", "2,3", "10,3,2,3", "4,4", "12,2,2,2")


CHART_ID = "running-totals"
LEGEND_CHARACTERS = 24  # a legend name longer than this ends in "…" (one column of 360 px holds 24 characters)
LEGEND_ROW = 28  # px per legend row (15 px text and the gap pygal leaves between rows)
NARROW_NAME = 11  # a name this wide or less (CJK characters count twice) fits half of the legend


def _width(name: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in name)


def legend_columns(names: list[str]) -> int:
    """Two legend columns when there are more than three names and every one fits half the width;
    one otherwise (no name is clipped, pygal cuts only what is over LEGEND_CHARACTERS)."""
    return 2 if len(names) > 3 and all(_width(n) <= NARROW_NAME for n in names) else 1
# Lighter twins of PALETTE for a dark page (the same hues; each at least 4.5:1 on the dark card).
DARK_PALETTE = ("#56B4E9", "#F0894A", "#35C9A0", "#E3A6CB", "#F2C14E", "#9BD3F2")


def whole_ticks(values: list[int], most: int = 8) -> list[int]:
    """Points are whole numbers: at most ``most`` + 1 ticks, a round step apart (1, 2, 5, 10, 20 …),
    covering every value and 0 (pygal's own choice shows 0.2, 0.4 … on a small range)."""
    low, high = min(values + [0]), max(values + [0])
    scale, step = 1, 1
    while (high - low) / step > most:
        step = next((f * scale for f in (2, 5, 10) if (high - low) / (f * scale) <= most), 10 * scale)
        scale *= 10
    start = (low // step) * step
    return list(range(start, -(-high // step) * step + 1, step))


def _pygal_chart(numbers: list[int], series: dict[str, list[int]], *, x_title: str, y_title: str) -> ET.Element:
    """pygal's drawing of the running totals, parsed (its own ``<style>`` still inside)."""
    import pygal
    from pygal.style import Style

    # No background of its own and text in the page's colour: the chart follows the phone's colour
    # scheme (light or dark, review.css); the lines' colours for a dark page are in chart_css().
    style = Style(colors=PALETTE, background="transparent", plot_background="transparent",
                  foreground="currentColor", foreground_strong="currentColor", foreground_subtle="#8a9096",
                  opacity="1", opacity_hover="1",
                  font_family='system-ui, "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif',
                  label_font_size=12, major_label_font_size=12, legend_font_size=15, title_font_size=15,
                  stroke_width=3)
    columns = legend_columns(list(series))
    chart = pygal.Line(width=360, height=300 + LEGEND_ROW * -(-len(series) // columns), style=style, js=[],
                       legend_at_bottom=True, legend_at_bottom_columns=columns, truncate_legend=LEGEND_CHARACTERS,
                       allow_interruptions=True,  # None: the player was not at that hand (a gap in the line)
                       show_dots=len(numbers) <= 30, dots_size=3, x_title=x_title, y_title=y_title,
                       show_minor_x_labels=False, x_labels_major_count=6, truncate_label=-1,
                       margin=8, margin_bottom=20, spacing=8, disable_xml_declaration=True, no_prefix=False)
    chart.x_labels = [str(n) for n in numbers]
    chart.y_labels = whole_ticks([v for values in series.values() for v in values if v is not None])
    for i, (name, values) in enumerate(series.items()):
        dash = DASHES[i % len(DASHES)]
        chart.add(name, values, stroke_style={"width": 3, "dasharray": dash} if dash else {"width": 3})
    return ET.fromstring(chart.render(is_unicode=True))


_NS = "{http://www.w3.org/2000/svg}"


def _take_styles(root: ET.Element) -> str:
    """Remove pygal's ``<style>`` elements and return their CSS, its selectors on :data:`CHART_ID`."""
    css = []
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag == f"{_NS}style":
                css.append(child.text or "")
                parent.remove(child)
    return "".join(css).replace("#" + root.get("id", "chart"), "#" + CHART_ID)


def chart_css() -> str:
    """The chart's stylesheet, served from this site (the pages' CSP allows no inline style): pygal's
    own rules for as many lines as a table can have (of any registered game), the same for every chart."""
    return _chart_css(max(engine.PLAYER_RANGE[1] for engine in ENGINES.values()))


@functools.lru_cache(maxsize=4)
def _chart_css(most: int) -> str:
    names = {f"p{i}": [0, i] for i in range(most)}
    css = _take_styles(_pygal_chart([1, 2], names, x_title="", y_title=""))
    colours = [DARK_PALETTE[i % len(DARK_PALETTE)] for i in range(most)]
    dark = "".join(f"#{CHART_ID} .color-{i}, #{CHART_ID} .color-{i} a:visited {{ stroke: {colour}; fill: {colour}; }}"
                   for i, colour in enumerate(colours))
    return css + f"\n@media screen and (prefers-color-scheme: dark) {{ {dark} }}\n"


def running_totals_svg(numbers: list[int], series: dict[str, list[int | None]], *, title: str, desc: str,
                       x_title: str, y_title: str, tap=None) -> Markup:
    """The running totals as an accessible SVG drawn by pygal: one line per player (colour-blind-safe
    colours and a dash of its own), names in the legend, ``<title>`` and ``<desc>``; no script, no
    inline style (the CSS is :func:`chart_css`, a stylesheet of this site)."""
    root = _pygal_chart(numbers, series, x_title=x_title, y_title=y_title)
    ns = _NS
    _take_styles(root)
    # pygal's tooltip script, its tooltip group and its per-point <title>/<desc> are for its
    # JavaScript, which we do not use: drop them, and give the chart one title and one description.
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag in (f"{ns}script", f"{ns}title", f"{ns}desc") or child.get("style") is not None:
                parent.remove(child)
    _legend_lines(root, ns)
    if tap is not None:
        _hand_taps(root, ns, numbers, tap)
    root.set("id", CHART_ID)
    chart_id = CHART_ID
    title_el = ET.Element(f"{ns}title", {"id": f"{chart_id}-title"})
    title_el.text = title
    desc_el = ET.Element(f"{ns}desc", {"id": f"{chart_id}-desc"})
    desc_el.text = desc
    root.insert(0, desc_el)
    root.insert(0, title_el)
    # An image, or, with a link per hand (``tap``), a group whose links a screen reader can reach.
    root.set("role", "img" if tap is None else "group")
    root.set("aria-labelledby", f"{chart_id}-title {chart_id}-desc")
    root.set("class", (root.get("class", "") + " running-totals").strip())
    ET.register_namespace("", "http://www.w3.org/2000/svg")
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    return Markup(ET.tostring(root, encoding="unicode"))


def _legend_lines(root, ns: str) -> None:
    """pygal's legend shows a coloured square: draw a short stretch of the line instead, with its dash,
    so that the legend tells the lines apart without colour too."""
    for group in root.iter(f"{ns}g"):
        if "legend" not in (group.get("class") or "").split():
            continue
        for i, rect in enumerate(list(group)):
            if rect.tag != f"{ns}rect":
                continue
            serie = (group.get("id") or "").rpartition("-")[2]
            dash = DASHES[int(serie) % len(DASHES)] if serie.isdigit() else ""
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0)) + float(rect.get("height", 12)) / 2
            attrs = {"d": f"M{x - 8:.1f} {y:.1f} h22", "class": rect.get("class", "").replace(" reactive", ""),
                     "fill": "none", "stroke-width": "3"}
            if dash:
                attrs["stroke-dasharray"] = dash
            group.remove(rect)
            group.insert(i, ET.Element(f"{ns}path", attrs))


def _hand_taps(root, ns: str, numbers: list[int], tap) -> None:
    """A tap (or a keyboard focus) on a hand of the chart: one link per drawn hand, a transparent
    band the height of the plot around the hand's x, to ``#<id>`` where ``tap(number)`` gives
    ``(id, label)``; the page shows the totals at that hand there (CSS ``:target``, no script).
    pygal puts the n numbers at i / (n − 1) of the plot's width."""
    plot = next((g for g in root.iter(f"{ns}g") if "plot" in (g.get("class") or "").split()), None)
    background = None if plot is None else next(
        (r for r in plot if r.tag == f"{ns}rect" and "background" in (r.get("class") or "")), None)
    if background is None or len(numbers) < 2:
        return
    width, height = float(background.get("width", 0)), float(background.get("height", 0))
    band = width / (len(numbers) - 1)
    group = ET.SubElement(plot, f"{ns}g", {"class": "hand-taps"})
    for i, number in enumerate(numbers[1:], 1):
        target, label = tap(number)
        link = ET.SubElement(group, f"{ns}a", {"href": f"#{target}", "aria-label": label})
        ET.SubElement(link, f"{ns}rect", {"x": f"{max(0.0, band * (i - 0.5)):.1f}", "y": "0",
                                          "width": f"{band if i < len(numbers) - 1 else band / 2:.1f}",
                                          "height": f"{height:.1f}", "class": "hand-tap"})
