#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws the memory picture as an SVG from the "mm:" picture lines of a boot log or a replay.

    memory_svg.py LOG OUT.svg [--title TEXT] [--layout OUT.json]

The lines are defined in mm/README.md ("The memory picture"). The address space from 0 to the
end of RAM is one strip, drawn as five rows: the firmware map, the reserved ranges by who
reserved them, the free blocks by order, the pageblocks by mobility type, the zones; with more
than one node (zone lines that end with "node N"), a sixth: the nodes' bands, each zone named
with its node ("N1 DMA32"). Holes and
large non-RAM ranges are compressed to a fixed width and labelled with their size; RAM is shared
out in proportion to its size, with a minimum width so that a 4 KiB reservation on a 128 GiB
machine stays visible.
Below: the legend, and per zone a bar chart of its free blocks by order (buddyinfo).

--layout writes where the zones' and nodes' bands and the legend's swatches are, with their colours, for
the test that renders the SVG and checks the pixels (tests/picture/check_png.py).
"""
import json
import math
import re
import sys

WIDTH = 1600
MARGIN = 20
STRIP_W = WIDTH - 2 * MARGIN
MIN_W = 3          # the narrowest piece of RAM, in pixels
GAP_W = 40         # a compressed hole or non-RAM range
ROW_H = 30
ROWS = ["firmware map", "reserved", "free blocks", "pageblock types", "zones"]
STRIP_Y = 60

MAP_COLOURS = {
    "usable": "#cfe8cf", "reserved": "#8c8c8c", "ACPI data": "#e0b050", "ACPI NVS": "#c07020",
    "unusable": "#d02020", "hole": "#ffffff",
}
OTHER_MAP = "#6a5acd"  # persistent memory and any type this script does not know
RESERVED_COLOURS = [  # (what the line's WHAT starts with, colour, legend)
    ("kernel image", "#1f4fd0", "kernel image"),
    ("memmap", "#d01fb0", "memmap"),
    ("multiboot2 information", "#20b0c0", "boot information"),
    ("firmware memory map", "#7050e0", "firmware map storage"),
    ("module", "#e07000", "modules"),
    ("gigantic page", "#a00000", "gigantic pages"),
    ("first 1 MiB", "#b0b0b0", "first 1 MiB"),
    ("SMP trampoline", "#606000", "SMP trampoline"),
]
OTHER_RESERVED = ("#404040", "other early allocations")
# Order 0 to 10: from a warm red (small, fragmented) to a deep green (whole 4 MiB blocks).
ORDER_COLOURS = ["#ff0000", "#ff4000", "#ff8000", "#ffb000", "#ffe000", "#d0f000",
                 "#90e000", "#50d000", "#20b020", "#108040", "#005a32"]
NOT_FREE = "#e8e8e8"
ZONE_COLOURS = {"DMA": "#f4a6a6", "DMA32": "#a6c8f4", "Normal": "#b6e8a6"}
# Node N's band (mm/node.h: MAX_NUMNODES is 8), light enough for its black label.
NODE_COLOURS = ["#ffd966", "#c9b3f0", "#7fd8c8", "#f7b6a1", "#9ec9e8", "#e3b7d9", "#d9e68c", "#c0c0a0"]
# The mobility types of the "mm: pageblock" lines (mm/pageblock.h), each 2 MiB drawn in its type's colour.
PAGEBLOCK_COLOURS = {"Unmovable": "#7b241c", "Movable": "#2e86de", "Reclaimable": "#f39c12", "Isolate": "#8e44ad"}
OTHER_PAGEBLOCK = "#000000"  # a type this script does not know

LINE = re.compile(r"mm: (map|hole|reserved|zone|free|pageblock) 0x([0-9a-f]+) 0x([0-9a-f]+) ?(.*?)\s*$")


def read_lines(path):
    """The picture lines of the last "mm: picture begin" block of the log, as tuples."""
    blocks, current = [], None
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if line.endswith("mm: picture begin"):
                current = []
            elif line.endswith("mm: picture end") and current is not None:
                blocks.append(current)
                current = None
            elif current is not None:
                m = LINE.search(line)
                if m:
                    current.append((m[1], int(m[2], 16), int(m[3], 16), m[4]))
    if not blocks:
        sys.exit(f"{path}: no \"mm: picture begin\" ... \"mm: picture end\" lines "
                 "(boot with mm_picture on the command line, or replay --picture)")
    return blocks[-1]


def size_text(n):
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            v = n / (1 << shift)
            return f"{v:.0f} {unit}" if v >= 10 or v == int(v) else f"{v:.1f} {unit}"
    return f"{n} B"


def reserved_style(what):
    for prefix, colour, legend in RESERVED_COLOURS:
        if what.startswith(prefix):
            return colour, legend
    return OTHER_RESERVED


class Scale:
    """Maps addresses to x: RAM in proportion (with a minimum width), other ranges compressed."""

    def __init__(self, cuts, is_ram):
        self.pieces = []  # (start, end, x, width, ram)
        ram = [(a, b) for a, b in zip(cuts, cuts[1:]) if is_ram(a, b)]
        gaps = len(cuts) - 1 - len(ram)
        total_ram = sum(b - a for a, b in ram) or 1
        spare = max(STRIP_W - gaps * GAP_W - len(ram) * MIN_W, 0)
        x = MARGIN
        for a, b in zip(cuts, cuts[1:]):
            r = is_ram(a, b)
            w = MIN_W + spare * (b - a) / total_ram if r else GAP_W
            self.pieces.append((a, b, x, w, r))
            x += w

    def x(self, addr):
        for a, b, x, w, _ in self.pieces:
            if a <= addr <= b:
                return x + w * (addr - a) / (b - a)
        return MARGIN + STRIP_W


def zone_of(what):
    """(name, node or None) of a zone line's words: "DMA32 node 2" or, with one node, "DMA32"."""
    name, _, node = what.partition(" node ")
    return name, int(node) if node.isdigit() else None


def zone_label(name, node):
    return name if node is None else f"N{node} {name}"


def node_bands(zones):
    """Adjacent zones of one node as one band: (base, end, node), lowest first."""
    bands = []
    for b, e, name, node in sorted(zones):
        if bands and bands[-1][2] == node:
            bands[-1] = (bands[-1][0], e, node)
        else:
            bands.append((b, e, node))
    return bands


def build(lines, title):
    maps = [l for l in lines if l[0] == "map"]
    top = max((e for k, b, e, w in maps if w == "usable"), default=0)
    if not top:
        sys.exit("no usable RAM in the picture lines")
    clip = [(k, b, min(e, top), w) for k, b, e, w in lines if b < top]
    cuts = sorted({0, top} | {b for _, b, _, _ in clip} | {e for _, _, e, _ in clip})
    usable = [(b, e) for k, b, e, w in clip if k == "map" and w == "usable"]

    def is_ram(a, b):
        return any(ub <= a and b <= ue for ub, ue in usable)

    scale = Scale(cuts, is_ram)
    out, layout = [], {"width": WIDTH, "zones": [], "legend": [], "free_orders": []}
    rect = lambda x, y, w, h, fill, extra="": out.append(
        f'<rect x="{x:.2f}" y="{y}" width="{max(w, 0.5):.2f}" height="{h}" fill="{fill}"{extra}/>')
    text = lambda x, y, s, extra="": out.append(f'<text x="{x:.1f}" y="{y}"{extra}>{s}</text>')

    text(MARGIN, 24, f"{title}: physical memory 0 - {top:#x} ({size_text(top)})",
         ' font-size="18" font-weight="bold"')
    zones = [(b, e) + zone_of(w) for k, b, e, w in clip if k == "zone"]
    numa = any(node is not None for _, _, _, node in zones)
    rows = ROWS + (["nodes"] if numa else [])
    rows_y = {name: STRIP_Y + i * (ROW_H + 28) for i, name in enumerate(rows)}
    layout["rows"] = {name: y + ROW_H // 2 for name, y in rows_y.items()}
    for name, y in rows_y.items():
        text(MARGIN, y - 4, name, ' font-size="12" fill="#333"')
        rect(MARGIN, y, STRIP_W, ROW_H, "#ffffff", ' stroke="#999" stroke-width="0.5"')

    # Row 1: the firmware map, holes compressed and labelled.
    y = rows_y["firmware map"]
    for a, b, x, w, ram in scale.pieces:
        kinds = [wh for k, mb, me, wh in clip if k == "map" and mb <= a and b <= me]
        kind = kinds[0] if kinds else "hole"
        rect(x, y, w, ROW_H, MAP_COLOURS.get(kind, OTHER_MAP))
        if not ram:
            out.append(f'<line x1="{x:.2f}" y1="{y}" x2="{x + w:.2f}" y2="{y + ROW_H}" stroke="#999"/>')
            text(x + w / 2, y + ROW_H + 11, size_text(b - a), ' font-size="9" text-anchor="middle"')
    # Row 2: reserved ranges by who reserved them.
    y = rows_y["reserved"]
    for k, b, e, what in clip:
        if k == "reserved":
            colour, _ = reserved_style(what)
            x0 = scale.x(b)
            rect(x0, y, max(scale.x(e) - x0, MIN_W), ROW_H, colour)
    # Row 3: free blocks by order; RAM that is not free is light grey.
    y = rows_y["free blocks"]
    for a, b, x, w, ram in scale.pieces:
        if ram:
            rect(x, y, w, ROW_H, NOT_FREE)
    free = [(b, e, int(w.split()[1])) for k, b, e, w in clip if k == "free"]
    for b, e, order in free:
        x0 = scale.x(b)
        rect(x0, y, max(scale.x(e) - x0, 1), ROW_H, ORDER_COLOURS[min(order, 10)])
    # Row 4: the pageblocks' mobility types; RAM outside any line (none after a boot) stays light grey.
    y = rows_y["pageblock types"]
    for a, b, x, w, ram in scale.pieces:
        if ram:
            rect(x, y, w, ROW_H, NOT_FREE)
    for k, b, e, kind in clip:
        if k != "pageblock":
            continue
        for a, z, x, w, ram in scale.pieces:  # a pageblock may span a hole: drawn on its RAM only
            if ram and max(a, b) < min(z, e):
                x0 = scale.x(max(a, b))
                rect(x0, y, max(scale.x(min(z, e)) - x0, 1), ROW_H, PAGEBLOCK_COLOURS.get(kind, OTHER_PAGEBLOCK))
    # Row 5: the zones, with their names and bounds.
    y = rows_y["zones"]
    last_label = 0
    for b, e, name, node in zones:
        x0, x1 = scale.x(b), scale.x(e)
        colour, label = ZONE_COLOURS.get(name, "#dddddd"), zone_label(name, node)
        rect(x0, y, max(x1 - x0, MIN_W), ROW_H, colour, ' stroke="#555" stroke-width="0.5"')
        if x1 - x0 >= 8 * len(label) + 6:  # a narrow zone is named by the legend's colour only
            text((x0 + x1) / 2, y + 19, label, ' font-size="12" text-anchor="middle"')
        if x0 >= last_label:
            text(x0 + 1, y + ROW_H + 12, f"{b:#x}", ' font-size="9"')
            last_label = x0 + 6 * len(f"{b:#x}") + 8
        layout["zones"].append({"name": label, "x": (x0 + x1) / 2, "y": y + 4, "colour": colour})
    text(MARGIN + STRIP_W, rows_y["zones"] + ROW_H + 12, f"{top:#x}", ' font-size="9" text-anchor="end"')
    # Row 6, with several nodes: each node's band over the zones it holds, labelled "node N".
    layout["nodes"] = []
    if numa:
        y = rows_y["nodes"]
        for b, e, node in node_bands(zones):
            x0, x1 = scale.x(b), scale.x(e)
            colour, label = NODE_COLOURS[node % len(NODE_COLOURS)], f"node {node}"
            rect(x0, y, max(x1 - x0, MIN_W), ROW_H, colour, ' stroke="#555" stroke-width="0.5"')
            named = x1 - x0 >= 8 * len(label) + 6  # a narrow band is named by the legend's colour only
            if named:
                text((x0 + x1) / 2, y + 19, label, ' font-size="12" text-anchor="middle"')
            layout["nodes"].append({"node": node, "x": (x0 + x1) / 2, "y": y + 4, "colour": colour,
                                    "label": [x0 + 2, y + 8, x1 - 2, y + 22] if named else None})

    # The legend: five groups, one swatch each.
    ly = rows_y[rows[-1]] + ROW_H + 40
    groups = [
        ("firmware map", [(c, n) for n, c in MAP_COLOURS.items()] + [(OTHER_MAP, "other type")]),
        ("reserved", [(c, n) for _, c, n in RESERVED_COLOURS] + [OTHER_RESERVED]),
        ("free blocks by order", [(c, f"order {o}") for o, c in enumerate(ORDER_COLOURS)] + [(NOT_FREE, "not free")]),
        ("pageblock types", [(c, n) for n, c in PAGEBLOCK_COLOURS.items()]),
        ("zones", [(c, n) for n, c in ZONE_COLOURS.items()]),
    ]
    if numa:
        shown = sorted({node for _, _, _, node in zones})
        groups.append(("nodes", [(NODE_COLOURS[n % len(NODE_COLOURS)], f"node {n}") for n in shown]))
    for gi, (name, items) in enumerate(groups):
        x = MARGIN + gi * (STRIP_W / len(groups))
        text(x, ly, name, ' font-size="12" font-weight="bold"')
        for i, (colour, label) in enumerate(items):
            sy = ly + 8 + i * 18
            rect(x, sy, 14, 14, colour, ' stroke="#555" stroke-width="0.5"')
            text(x + 20, sy + 11, label, ' font-size="11"')
            layout["legend"].append({"label": label, "x": x + 7, "y": sy + 7, "colour": colour})
    ly += 8 + 13 * 18 + 20

    # Buddyinfo per zone: free blocks by order, bar heights on a log scale; three charts a row.
    text(MARGIN, ly, "free blocks per order in each zone (buddyinfo; bar height on a log scale)",
         ' font-size="12" font-weight="bold"')
    chart_w, bar_h = (STRIP_W - 40) / 3, 100
    chart_h = bar_h + 64
    for zi, (b, e, name, node) in enumerate(zones):
        counts = [0] * 11
        for fb, fe, order in free:
            if b <= fb < e:
                counts[min(order, 10)] += (fe - fb) >> (12 + order)
        cy = ly + zi // 3 * chart_h
        cx, base = MARGIN + zi % 3 * (chart_w + 20), cy + 34 + bar_h
        peak = max(counts) or 1
        text(cx, cy + 16, zone_label(name, node), ' font-size="11"')
        for o, n in enumerate(counts):
            h = bar_h * math.log1p(n) / math.log1p(peak)
            bx = cx + o * chart_w / 11
            rect(bx, base - h, chart_w / 11 - 4, h, ORDER_COLOURS[o])
            text(bx + chart_w / 22 - 2, base + 12, str(o), ' font-size="9" text-anchor="middle"')
            text(bx + chart_w / 22 - 2, base - h - 3, str(n), ' font-size="9" text-anchor="middle"')
            layout["free_orders"].append({"zone": zone_label(name, node), "order": o, "count": n})
    height = int(ly + max(len(zones) - 1, 0) // 3 * chart_h + 34 + bar_h + 30)
    layout["height"] = height
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" shape-rendering="crispEdges">',
           f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>'] + out + ["</svg>"]
    return "\n".join(svg) + "\n", layout


def main(argv):
    args, title, layout_path = [], None, None
    it = iter(argv[1:])
    for a in it:
        if a == "--title":
            title = next(it)
        elif a == "--layout":
            layout_path = next(it)
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__)
    svg, layout = build(read_lines(args[0]), title or args[0].split("/")[-1])
    with open(args[1], "w") as f:
        f.write(svg)
    if layout_path:
        with open(layout_path, "w") as f:
            json.dump(layout, f, indent=1)


if __name__ == "__main__":
    main(sys.argv)
