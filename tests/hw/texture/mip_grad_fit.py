#!/usr/bin/env python3
"""Which level-of-detail rule explains the H200's tex.grad fetches (issue 29)?

Reads tests/hw/data/h200/texture_mip/mip_samples.csv.gz (cases g_*, g1d_*: x, y, dPdx.x, dPdx.y,
dPdy.x, dPdy.y, then the four returned f32 components in hex) and
  1. finds, for every sample of the linear-mipmap cases, the 8-bit fixed-point level of detail the
     H200 used: the fetch is recomputed with the tex.level rules of the data's README (share of each level in 1/256, the
     per-texel weights in 1/256, clamp addressing) for every LOD 0 ... (levels - 1) in steps of
     1/256, and the LODs whose result equals the H200's bits are kept (the g_w_even/g_w_odd pairs:
     one-hot parity textures, so each sample's eight weights are read back);
  2. lists, per gradient direction of the g_w cases, the H200's LOD minus 256 log2 of the
     OpenGL/Vulkan rho (in 1/256; samples clamped to 0 or 4 left out), and the offset c for which
     LOD = floor(256 log2(rho) + c) would hold for all of them (an empty interval: no such c);
  3. scores candidate rules lambda = log2(rho(dPdx, dPdy)), truncated to 8 fractional bits and
     clamped to [0, levels - 1] as for tex.level, by how many samples they reproduce bit for bit.
Run: python3 tests/hw/texture/mip_grad_fit.py [--samples]   (--samples prints every sample's LOD)
No external modules; under a minute.
"""
import csv
import gzip
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "h200", "texture_mip", "mip_samples.csv.gz")


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def bits(v):
    return "%08x" % struct.unpack("<I", struct.pack("<f", v))[0]


def round256(n):  # n / 256 rounded, ties up
    return (n + 128) // 256


def weight8(v):  # frac(v) in 8 fractional bits, ties up (0 ... 256)
    return int(math.floor((v - math.floor(v)) * 256 + 0.5))


def level_footprint(coords, sizes, share, linear):
    """[(texel index tuple, weight in 1/256)] on one level (README: 'What the samples say')."""
    if not linear:
        return [(tuple(min(max(int(math.floor(c * s)), 0), s - 1) for c, s in zip(coords, sizes)), share)]
    lo, w = [], []
    for c, s in zip(coords, sizes):
        v = min(max(c * s, 0.5), s - 0.5) - 0.5
        lo.append(int(math.floor(v)))
        w.append(weight8(v))
    c1 = round256(share * w[0])
    c0 = share - c1
    if len(coords) == 1:
        parts = [((0,), c0), ((1,), c1)]
    else:
        s00 = round256(c0 * (256 - w[1]))
        s11 = round256(c1 * w[1])
        parts = [((0, 0), s00), ((1, 0), c1 - s11), ((0, 1), c0 - s00), ((1, 1), s11)]
    return [(tuple(min(max(lo[d] + k[d], 0), sizes[d] - 1) for d in range(len(k))), wt) for k, wt in parts]


def fetch(lod256, coords, sizes, texel, linear_mip):
    level, frac = lod256 >> 8, lod256 & 255
    parts = [(level, 256 - frac), (level + 1, frac)] if linear_mip else [(level + (frac >= 128), 256)]
    acc = [0.0] * 4
    for lv, share in parts:
        if share:
            for idx, wt in level_footprint(coords, sizes[lv], share, True):
                v = texel(lv, idx)
                for ch in range(4):
                    acc[ch] += wt / 256 * v[ch]
    return [bits(f32(a)) for a in acc]


def onehot(parity):  # mip_probe's w textures: 1 in channel (x & 1) + 2 (y & 1) on levels of that parity
    def t(lv, idx):
        c = [0.0] * 4
        if lv & 1 == parity:
            c[(idx[0] & 1) + 2 * (idx[1] & 1)] = 1.0
        return c
    return t


def values2d(lv, idx):  # mip_probe's 8x8 value texture
    v = f32(100.0 * lv + 10.0 * idx[1] + idx[0] * idx[0] * 0.75 + 1.0)
    return [v, f32(-v), f32(v * 0.5), 1.0]


def values1d(lv, idx):
    return [f32(100.0 * lv + 0.75 * idx[0] ** 2 + 1), 0.0, 0.0, 0.0]


W16 = [(16 >> l, 16 >> l) for l in range(5)]
V8 = [(8 >> l, 8 >> l) for l in range(4)]
S16 = [(16 >> l,) for l in range(5)]
# case, level sizes, texel values, linear mipmap filtering, dimensions
CASES = [("g_w_even_linear", W16, onehot(0), True, 2), ("g_w_odd_linear", W16, onehot(1), True, 2),
         ("g_w_even_point", W16, onehot(0), False, 2), ("g_w_odd_point", W16, onehot(1), False, 2),
         ("g_v2d_linear_linear", V8, values2d, True, 2), ("g1d_linear_linear", S16, values1d, True, 1)]


def load():
    rows = {}
    with gzip.open(DATA, "rt") as f:
        for r in csv.reader(f):
            if r[0] != "case":
                rows.setdefault(r[0], []).append(([float(v) for v in r[1:7]], r[7:11]))
    return rows


def gradients(inp, size, dims):
    """dPdx, dPdy in texels of level 0."""
    _, _, dxx, dxy, dyx, dyy = inp
    if dims == 1:
        return (dxx * size[0], 0.0), (dyx * size[0], 0.0)
    return (dxx * size[0], dxy * size[1]), (dyx * size[0], dyy * size[1])


def largest_singular_value(a, b):
    p, q, r = a[0] ** 2 + a[1] ** 2, b[0] ** 2 + b[1] ** 2, a[0] * b[0] + a[1] * b[1]
    return math.sqrt((p + q + math.sqrt((p - q) ** 2 + 4 * r * r)) / 2)


CANDIDATES = [
    ("rho = max(|dPdx|, |dPdy|) (OpenGL/Vulkan, the guide)", lambda a, b: max(math.hypot(*a), math.hypot(*b))),
    ("rho = largest singular value of (dPdx dPdy) (ellipse major axis)", largest_singular_value),
    ("rho = max |component|", lambda a, b: max(abs(a[0]), abs(a[1]), abs(b[0]), abs(b[1]))),
    ("rho = max(|dPdx|_1, |dPdy|_1)", lambda a, b: max(abs(a[0]) + abs(a[1]), abs(b[0]) + abs(b[1]))),
    ("rho = sqrt(|dPdx|^2 + |dPdy|^2)", lambda a, b: math.sqrt(a[0] ** 2 + a[1] ** 2 + b[0] ** 2 + b[1] ** 2)),
]


def lod256(rho, top):
    lam = math.log2(rho) if rho > 0 else -1e9
    return int(math.floor(min(max(lam, 0.0), top) * 256))


def main():
    rows = load()
    print("1. the level of detail each sample took")
    found = {}
    for name, sizes, texel, linear_mip, dims in CASES:
        if not linear_mip:  # point mipmap filtering: many LODs give one answer
            continue
        top = len(sizes) - 1
        unique = 0
        for i, (inp, out) in enumerate(rows[name]):
            coords = (inp[0],) if dims == 1 else (inp[0], inp[1])
            lods = [v for v in range(top * 256 + 1) if fetch(v, coords, sizes, texel, linear_mip) == out]
            found[(name, i)] = lods
            unique += len(lods) == 1
        print("  %-22s %d samples, %d with exactly one LOD" % (name, len(rows[name]), unique))
    both = 0
    for i in range(len(rows["g_w_even_linear"])):
        common = set(found[("g_w_even_linear", i)]) & set(found[("g_w_odd_linear", i)])
        both += len(common) == 1
    print("  g_w_even/odd_linear together: %d of %d samples pinned to one LOD" % (both, len(rows["g_w_even_linear"])))
    if "--samples" in sys.argv:
        for name, *_ in CASES:
            for i, (inp, _) in enumerate(rows[name] if (name, 0) in found else []):
                print("   ", name, inp[2:], found[(name, i)][:4])
    print("2. the H200's LOD minus 256 log2(max(|dPdx|, |dPdy|)), per direction of the g_w cases")
    euclid = CANDIDATES[0][1]
    per_dir = {}
    for i, (inp, _) in enumerate(rows["g_w_even_linear"]):
        common = sorted(set(found[("g_w_even_linear", i)]) & set(found[("g_w_odd_linear", i)]))
        a, b = gradients(inp, W16[0], 2)
        if len(common) != 1 or not 0 < common[0] < 4 * 256:
            continue
        scale = max(abs(v) for v in inp[2:])
        key = tuple(round(v / scale, 3) for v in inp[2:])
        per_dir.setdefault(key, []).append(common[0] - 256 * math.log2(euclid(a, b)))
    for key, diffs in per_dir.items():
        # LOD = floor(256 log2(rho) + c) for every sample puts c in [max, min + 1)
        print("    dPdx, dPdy ~ %-34s %2d samples: %+.5f ... %+.5f, c in [%+.5f, %+.5f)"
              % (key, len(diffs), min(diffs), max(diffs), max(diffs), min(diffs) + 1))
    print("3. candidate rules (samples reproduced bit for bit)")
    for label, rho in CANDIDATES:
        total = hits = 0
        per = []
        for name, sizes, texel, linear_mip, dims in CASES:
            ok = 0
            for inp, out in rows[name]:
                a, b = gradients(inp, sizes[0], dims)
                coords = (inp[0],) if dims == 1 else (inp[0], inp[1])
                ok += fetch(lod256(rho(a, b), len(sizes) - 1), coords, sizes, texel, linear_mip) == out
            per.append("%s %d/%d" % (name, ok, len(rows[name])))
            total += len(rows[name])
            hits += ok
        print("  %-66s %4d/%d  (%s)" % (label, hits, total, ", ".join(per)))


if __name__ == "__main__":
    main()
