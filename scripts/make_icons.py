"""Write the touch icons (PNG) beside static/icon.svg: a white card on the app's green, drawn
with the standard library only (no image library needed). Run: python scripts/make_icons.py"""
import struct
import zlib
from pathlib import Path

GREEN, WHITE, DARK = (13, 92, 58), (255, 255, 255), (9, 64, 40)


def pixel(x: float, y: float) -> tuple:
    """The icon in a 0..1 square: rounded green tile, a tilted white card with a green pip."""
    r = 0.18
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return None
    u, v = 0.8 * (x - 0.5) + 0.26 * (y - 0.5), -0.26 * (x - 0.5) + 0.8 * (y - 0.5)  # tilted card
    if abs(u) < 0.25 and abs(v) < 0.34:
        if (u ** 2 + (v + 0.02) ** 2) < 0.012 or (abs(u) < 0.02 and 0 < v + 0.02 < 0.15):
            return GREEN
        return WHITE
    if abs(u + 0.03) < 0.25 and abs(v - 0.03) < 0.34:
        return DARK
    return GREEN


def maskable(x: float, y: float) -> tuple:
    """The same card, full-bleed green and inside the maskable safe zone (the central 80 %)."""
    inner = pixel(0.5 + (x - 0.5) / 0.72, 0.5 + (y - 0.5) / 0.72)
    return inner or GREEN


def png(size: int, draw=pixel) -> bytes:
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            samples = [draw((i + a) / size, (j + b) / size) for a in (0.25, 0.75) for b in (0.25, 0.75)]
            inside = [s for s in samples if s]
            alpha = 255 * len(inside) // 4
            color = tuple(sum(c[k] for c in inside) // len(inside) for k in range(3)) if inside else (0, 0, 0)
            row += bytes(color) + bytes([alpha])
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    head = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    static = Path(__file__).resolve().parent.parent / "static"
    for size, name in ((180, "apple-touch-icon.png"), (192, "icon-192.png"), (32, "favicon-32.png")):
        (static / name).write_bytes(png(size))
    (static / "icon-512.png").write_bytes(png(512))  # the web-app manifest (static/… via views/pwa.py)
    for size in (192, 512):
        (static / f"icon-maskable-{size}.png").write_bytes(png(size, maskable))
