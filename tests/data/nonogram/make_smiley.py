"""Writes smiley.png beside this script: a 40x40 greyscale picture made for puzzlebench's
tests (a dark face on a light background with a soft shading, so that the threshold and
the translucent-squares methods give different pictures). Standard library only.

    python3 tests/data/nonogram/make_smiley.py
"""
import math
import os
import struct
import zlib

W = H = 40


def grey(x, y):
    cx, cy = (x - 19.5) / 18.0, (y - 19.5) / 18.0
    r = math.hypot(cx, cy)
    if r > 1.0:
        return 235  # background
    eye = min(math.hypot(cx + 0.35, cy + 0.3), math.hypot(cx - 0.35, cy + 0.3))
    if eye < 0.13:
        return 250  # eyes
    if 0.45 < math.hypot(cx, cy + 0.05) < 0.58 and cy > 0.15:
        return 245  # mouth
    # The face darkens towards its lower right.
    return int(40 + 80 * (1 - (cx + cy + 2) / 4))


rows = b"".join(b"\x00" + bytes(grey(x, y) for x in range(W)) for y in range(H))


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


png = b"\x89PNG\r\n\x1a\n"
png += chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(rows, 9))
png += chunk(b"IEND", b"")
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "smiley.png"), "wb") as f:
    f.write(png)
