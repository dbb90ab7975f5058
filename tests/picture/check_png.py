#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the pixels of a memory picture that a browser rendered to PNG.

    check_png.py PNG LAYOUT.json LOG

LOG is what the picture was drawn from; LAYOUT is where memory_svg.py says it drew the zones'
bands and the legend's swatches. Checks: the PNG is the SVG's size; it is not blank (many
colours, much of it not white); every zone of the LOG's "mm: zone" lines has its band in the
layout, drawn in its colour; every legend swatch is drawn in its colour; the free-blocks row holds
the colour of the largest order the LOG has free; the pageblock row holds the colour of every
mobility type the LOG's "mm: pageblock" lines name (a picture without them fails); with more than
one node (zone lines that end with "node N"), every zone is drawn under its "N1 DMA32" name and
every node with memory has its band in its own colour, its "node N" label written on it (dark
pixels in the band). Prints "ok"/"FAIL" per check, then
"N passed, N failed". The PNG is decoded here (zlib and the five PNG filters), with no package
beyond Python's own library.
"""
import json
import re
import struct
import sys
import zlib

TOLERANCE = 6  # per channel: the browser's colour management may move a value by a step or two


def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"{path}: depth {depth}, colour type {colour_type}, interlace {interlace}: not handled")
    bpp = 3 if colour_type == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def near(p, q):
    return all(abs(a - b) <= TOLERANCE for a, b in zip(p, q))


def check_nodes(rows, layout, block, check):
    """Each node of the log's zone lines has its band, in a colour of its own, and its label on it."""
    nodes = sorted({int(n) for n in re.findall(r"mm: zone 0x[0-9a-f]+ 0x[0-9a-f]+ \w+ node (\d+)", block)})
    if not nodes:
        return
    bands = {}
    for band in layout.get("nodes", []):
        bands.setdefault(band["node"], []).append(band)
    colours = {bands[n][0]["colour"] for n in nodes if n in bands}
    check(len(colours) == len(nodes), f"nodes {' '.join(map(str, nodes))}: {len(colours)} band colours")
    for n in nodes:
        if n not in bands:
            check(False, f"node {n} is in the log but has no band")
            continue
        for band in bands[n]:
            seen = rows[int(band["y"])][int(band["x"])]
            check(near(seen, rgb(band["colour"])),
                  f"node {n}: band {band['colour']} at ({band['x']:.0f}, {band['y']}), seen {seen}")
        labelled = [b["label"] for b in bands[n] if b["label"]]
        dark = sum(sum(p) < 300 for x0, y0, x1, y1 in labelled
                   for row in rows[int(y0):int(y1)] for p in row[int(x0):int(x1)])
        check(not labelled or dark >= 20, f"node {n}: label drawn on its band ({dark} dark pixels)")


def main(png, layout_path, log):
    layout = json.load(open(layout_path))
    results = []
    check = lambda ok, what: results.append((ok, what))
    width, height, rows = decode_png(png)
    check((width, height) == (layout["width"], layout["height"]),
          f"size {width}x{height}, the SVG's is {layout['width']}x{layout['height']}")
    pixels = [p for row in rows[::4] for p in row[::4]]
    colours = len(set(pixels))
    not_white = sum(p != (255, 255, 255) for p in pixels) / len(pixels)
    check(colours >= 20 and not_white > 0.05, f"not blank: {colours} colours, {not_white:.0%} not white")

    text = open(log, errors="replace").read()
    block = text[text.rfind("mm: picture begin"):]
    zones = [name if node == "" else f"N{node} {name}"
             for name, node in re.findall(r"mm: zone 0x[0-9a-f]+ 0x[0-9a-f]+ (\w+)(?: node (\d+))?", block)]
    drawn = {z["name"]: z for z in layout["zones"]}
    check(bool(zones), f"the log has zones: {' '.join(zones)}")
    for name in zones:
        z = drawn.get(name)
        if not z:
            check(False, f"zone {name} is in the log but not drawn")
            continue
        seen = rows[int(z["y"])][int(z["x"])]
        check(near(seen, rgb(z["colour"])), f"zone {name}: {z['colour']} at ({z['x']:.0f}, {z['y']}), seen {seen}")
    for s in layout["legend"]:
        seen = rows[int(s["y"])][int(s["x"])]
        check(near(seen, rgb(s["colour"])), f"legend {s['label']}: {s['colour']} at ({s['x']:.0f}, {s['y']}), seen {seen}")
    check_nodes(rows, layout, block, check)
    orders = [int(o) for o in re.findall(r"mm: free 0x[0-9a-f]+ 0x[0-9a-f]+ order (\d+)", block)]
    if orders:
        top = max(orders)
        colour = next(s["colour"] for s in layout["legend"] if s["label"] == f"order {top}")
        y = layout["rows"]["free blocks"]
        check(any(near(p, rgb(colour)) for p in rows[y]), f"free blocks of order {top} drawn in {colour}")
    types = sorted(set(re.findall(r"mm: pageblock 0x[0-9a-f]+ 0x[0-9a-f]+ (\w+)", block)))
    check(bool(types), f"the log has pageblock types: {' '.join(types)}")
    y = layout["rows"].get("pageblock types", 0)
    for kind in types:
        colour = next((s["colour"] for s in layout["legend"] if s["label"] == kind), None)
        check(colour is not None and any(near(p, rgb(colour)) for p in rows[y]),
              f"pageblocks of type {kind} drawn in {colour}")

    for ok, what in results:
        print(f"{'ok  ' if ok else 'FAIL'} {png}: {what}")
    failed = sum(not ok for ok, _ in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
