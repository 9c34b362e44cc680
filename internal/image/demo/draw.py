#!/usr/bin/env python3
"""Writes the demo pictures as SVG (svg/<name>.svg), 400x300 user units.

Each is a flat illustration of what a shop or a post of scripts/hmdp.sql is
about, drawn from the shapes below; render.sh turns them into the served
JPEG and WebP variants. Run: python3 draw.py (from this directory).
"""
import math
import os

W, H = 400, 300


def svg(body, bg="#f4e9d8"):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="960" height="720">'
            f'<rect width="{W}" height="{H}" fill="{bg}"/>{body}</svg>\n')


def el(tag, **a):
    attrs = " ".join(f'{k.rstrip("_").replace("_", "-")}="{v}"' for k, v in a.items())
    return f"<{tag} {attrs}/>"


def table(y=200, color="#b07a4a", line="#9a653a"):
    s = el("rect", x=0, y=y, width=W, height=H - y, fill=color)
    for i in range(1, 4):
        yy = y + i * (H - y) / 4
        s += el("line", x1=0, y1=yy, x2=W, y2=yy, stroke=line, stroke_width=1.5)
    return s


def tiles(color="#3f8f7a", gap="#e9f1ea", size=20, y1=200):
    s = el("rect", x=0, y=0, width=W, height=y1, fill=gap)
    for x in range(0, W, size):
        for y in range(0, y1, size):
            s += el("rect", x=x + 1, y=y + 1, width=size - 2, height=size - 2, fill=color, rx=2)
    return s


def checkers(y=200, a="#d64541", b="#f7f1e3", size=25):
    s = ""
    for i, x in enumerate(range(0, W, size)):
        for j, yy in enumerate(range(y, H, size)):
            s += el("rect", x=x, y=yy, width=size, height=size, fill=a if (i + j) % 2 else b)
    return s


def plate(cx, cy, rx, ry, fill="#ffffff", rim="#d9d4cc"):
    return el("ellipse", cx=cx, cy=cy, rx=rx, ry=ry, fill=rim) + el("ellipse", cx=cx, cy=cy - 2, rx=rx * .86, ry=ry * .8, fill=fill)


def steam(x, y, n=3, color="#ffffff"):
    s = ""
    for i in range(n):
        xx = x + (i - (n - 1) / 2) * 16
        s += el("path", d=f"M{xx} {y} c -8 -12 8 -20 0 -32 c -8 -12 8 -20 0 -30", fill="none", stroke=color,
                stroke_width=3, stroke_linecap="round", opacity=.7)
    return s


def bowl(cx, cy, w, color="#ffffff", food="#f5f0e6", band="#2f6fb0"):
    h = w * .45
    s = el("ellipse", cx=cx, cy=cy, rx=w / 2, ry=w * .12, fill=food)
    s += el("path", d=f"M{cx - w / 2} {cy} Q{cx - w / 2} {cy + h} {cx} {cy + h} Q{cx + w / 2} {cy + h} {cx + w / 2} {cy} Z", fill=color)
    s += el("path", d=f"M{cx - w * .45} {cy + h * .35} Q{cx} {cy + h * .55} {cx + w * .45} {cy + h * .35}", fill="none", stroke=band, stroke_width=3)
    return s


def chopsticks(x, y, color="#6b3e1f"):
    return (el("line", x1=x, y1=y, x2=x + 90, y2=y - 30, stroke=color, stroke_width=4, stroke_linecap="round") +
            el("line", x1=x + 6, y1=y + 6, x2=x + 96, y2=y - 22, stroke=color, stroke_width=4, stroke_linecap="round"))


def lantern(cx, cy, s=1.0):
    return (el("line", x1=cx, y1=0, x2=cx, y2=cy - 22 * s, stroke="#5a3b1a", stroke_width=2) +
            el("ellipse", cx=cx, cy=cy, rx=22 * s, ry=26 * s, fill="#d62d20") +
            el("rect", x=cx - 10 * s, y=cy - 30 * s, width=20 * s, height=6 * s, fill="#e8b23a") +
            el("rect", x=cx - 10 * s, y=cy + 24 * s, width=20 * s, height=6 * s, fill="#e8b23a") +
            el("line", x1=cx, y1=cy + 30 * s, x2=cx, y2=cy + 44 * s, stroke="#e8b23a", stroke_width=3))


def copper_pot(cx, cy, coal=True):
    s = ""
    if coal:
        s += el("ellipse", cx=cx, cy=cy + 58, rx=50, ry=12, fill="#ff7a1a", opacity=.8)
    s += el("path", d=f"M{cx - 40} {cy + 30} L{cx - 30} {cy + 62} L{cx + 30} {cy + 62} L{cx + 40} {cy + 30} Z", fill="#9c5a1c")
    s += el("ellipse", cx=cx, cy=cy + 12, rx=95, ry=26, fill="#c7792d")
    s += el("ellipse", cx=cx, cy=cy + 8, rx=84, ry=20, fill="#e7d8b8")
    s += el("path", d=f"M{cx - 95} {cy + 12} Q{cx} {cy + 70} {cx + 95} {cy + 12}", fill="#b8651f")
    s += el("rect", x=cx - 16, y=cy - 70, width=32, height=80, fill="#d08a3a")
    s += el("ellipse", cx=cx, cy=cy - 70, rx=20, ry=6, fill="#8a4a14")
    s += el("rect", x=cx - 16, y=cy - 40, width=32, height=6, fill="#b8651f")
    return s + steam(cx - 50, cy - 4, 2) + steam(cx + 50, cy - 4, 2)


def lamb_plate(cx, cy):
    s = plate(cx, cy, 46, 16)
    for i in range(5):
        s += el("ellipse", cx=cx - 24 + i * 12, cy=cy - 4, rx=10, ry=6, fill="#d9534f")
        s += el("path", d=f"M{cx - 30 + i * 12} {cy - 4} q 6 -4 12 0", fill="none", stroke="#fbe3e0", stroke_width=2)
    return s


def mic(x, y, s=1.0, color="#d8d8e0"):
    return (el("rect", x=x - 5 * s, y=y, width=10 * s, height=60 * s, rx=4 * s, fill="#2b2b33", transform=f"rotate(-20 {x} {y})") +
            el("circle", cx=x, cy=y, r=15 * s, fill=color) +
            el("path", d=f"M{x - 12 * s} {y - 4 * s} h{24 * s} M{x - 12 * s} {y + 4 * s} h{24 * s}", stroke="#9a9aa8", stroke_width=1.5))


def note(x, y, color="#ffd84d"):
    return (el("ellipse", cx=x, cy=y, rx=7, ry=5, fill=color, transform=f"rotate(-20 {x} {y})") +
            el("line", x1=x + 6, y1=y, x2=x + 6, y2=y - 26, stroke=color, stroke_width=2.5) +
            el("path", d=f"M{x + 6} {y - 26} q 10 4 10 14", fill="none", stroke=color, stroke_width=2.5))


def star(cx, cy, r, color):
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * .45
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return el("polygon", points=" ".join(pts), fill=color)


def heart(cx, cy, s, color):
    return el("path", d=f"M{cx} {cy + 10 * s} C{cx - 18 * s} {cy - 2 * s} {cx - 12 * s} {cy - 16 * s} {cx} {cy - 6 * s} "
                        f"C{cx + 12 * s} {cy - 16 * s} {cx + 18 * s} {cy - 2 * s} {cx} {cy + 10 * s} Z", fill=color)


def disco(cx, cy, r):
    s = el("line", x1=cx, y1=0, x2=cx, y2=cy - r, stroke="#bbb", stroke_width=2) + el("circle", cx=cx, cy=cy, r=r, fill="#c9ccd6")
    for i in range(-3, 4):
        s += el("line", x1=cx - r, y1=cy + i * r / 4, x2=cx + r, y2=cy + i * r / 4, stroke="#8f93a3", stroke_width=1)
        s += el("ellipse", cx=cx, cy=cy, rx=abs(i) * r / 4, ry=r, fill="none", stroke="#8f93a3", stroke_width=1)
    return s + el("circle", cx=cx - r * .35, cy=cy - r * .35, r=r * .18, fill="#ffffff", opacity=.8)


def ktv_room(accent, screen="#1c2a6b"):
    s = el("rect", x=0, y=0, width=W, height=H, fill="#1b1030")
    for i, c in enumerate([accent, "#38e1ff", "#ff4fd8"]):
        s += el("rect", x=0, y=22 + i * 8, width=W, height=3, fill=c, opacity=.7)
    s += el("rect", x=110, y=60, width=180, height=104, rx=6, fill="#0c0c14")
    s += el("rect", x=116, y=66, width=168, height=92, fill=screen)
    for i in range(12):  # a song's waveform on the screen
        h = 10 + 30 * abs(math.sin(i * 1.3))
        s += el("rect", x=130 + i * 12.5, y=112 - h / 2, width=7, height=h, rx=3, fill=accent, opacity=.9)
    s += el("rect", x=40, y=220, width=320, height=50, rx=14, fill="#5b2a86")  # sofa
    s += el("rect", x=30, y=200, width=340, height=30, rx=12, fill="#7a3bb0")
    return s


def horse(x, y, color="#7b4a26"):
    b = (f'<g fill="{color}">' + el("ellipse", cx=x, cy=y, rx=46, ry=20) +
         el("path", d=f"M{x + 30} {y - 8} L{x + 56} {y - 50} L{x + 74} {y - 44} L{x + 48} {y + 2} Z") +
         el("path", d=f"M{x + 56} {y - 50} l 30 10 l -4 10 l -24 -4 Z") +
         "".join(el("rect", x=x + dx, y=y + 8, width=7, height=44, rx=3) for dx in (-38, -26, 22, 34)) + "</g>" +
         el("path", d=f"M{x - 44} {y - 6} q -24 8 -18 40", fill="none", stroke="#3b2412", stroke_width=6, stroke_linecap="round") +
         el("path", d=f"M{x + 52} {y - 48} l 14 -10", stroke="#3b2412", stroke_width=6, stroke_linecap="round"))
    rider = (el("rect", x=x - 4, y=y - 56, width=16, height=38, rx=6, fill="#e4572e") + el("circle", cx=x + 4, cy=y - 66, r=10, fill="#f2c9a0") +
             el("path", d=f"M{x - 8} {y - 70} a 12 10 0 0 1 24 0 Z", fill="#2d2d2d") +
             el("line", x1=x + 4, y1=y - 22, x2=x + 14, y2=y + 4, stroke="#2d4a8a", stroke_width=6, stroke_linecap="round"))
    return b + rider


def flower(cx, cy, r, color, center="#ffd84d"):
    s = "".join(el("circle", cx=cx + r * math.cos(a), cy=cy + r * math.sin(a), r=r * .8, fill=color) for a in [i * math.pi * 2 / 5 for i in range(5)])
    return s + el("circle", cx=cx, cy=cy, r=r * .6, fill=center)


def wine(x, y):
    return (el("path", d=f"M{x - 18} {y} Q{x - 18} {y + 34} {x} {y + 36} Q{x + 18} {y + 34} {x + 18} {y} Z", fill="#f5f5f5", opacity=.7) +
            el("path", d=f"M{x - 16} {y + 14} Q{x - 14} {y + 33} {x} {y + 34} Q{x + 14} {y + 33} {x + 16} {y + 14} Z", fill="#8b1230") +
            el("line", x1=x, y1=y + 36, x2=x, y2=y + 66, stroke="#e9e9e9", stroke_width=3) +
            el("ellipse", cx=x, cy=y + 67, rx=14, ry=4, fill="#e9e9e9"))


def egg(cx, cy, r=18):
    return el("ellipse", cx=cx, cy=cy, rx=r, ry=r * .75, fill="#ffffff") + el("circle", cx=cx + 2, cy=cy - 1, r=r * .42, fill="#f6b21b")


PICTURES = {}


def picture(name):
    def reg(f):
        PICTURES[name] = f
        return f
    return reg


@picture("shop-1")  # 103茶餐厅: a Hong Kong tea restaurant
def _():
    s = tiles() + checkers()
    s += el("rect", x=150, y=30, width=100, height=44, rx=6, fill="#c0392b") + el("rect", x=156, y=36, width=88, height=32, rx=4, fill="none", stroke="#ffd84d", stroke_width=3)
    s += el("circle", cx=200, cy=52, r=10, fill="#ffd84d")
    s += el("path", d="M110 140 L118 236 L166 236 L174 140 Z", fill="#c68b59") + el("path", d="M110 140 L174 140 L172 160 L112 160 Z", fill="#e8c9a4")
    s += plate(262, 230, 66, 20) + el("path", d="M222 226 Q262 168 302 226 Z", fill="#e9a93c")
    for i in range(4):
        s += el("path", d=f"M{236 + i * 14} {212 - (i % 2) * 10} l 10 -8 l 10 8", fill="none", stroke="#b8741a", stroke_width=2.5)
    return s + steam(142, 132, 2)


@picture("shop-2")  # 蔡馬洪涛烤肉·老北京铜锅涮羊肉: copper hotpot with lamb
def _():
    s = el("rect", width=W, height=200, fill="#7d2a1f") + lantern(60, 70) + lantern(340, 70) + table(color="#5a3a22", line="#4a2e1a")
    return s + copper_pot(200, 170) + lamb_plate(70, 262) + lamb_plate(330, 262)


@picture("shop-3")  # 新白鹿餐厅: Hangzhou home cooking, many dishes
def _():
    s = el("rect", width=W, height=H, fill="#f1e3c8") + el("ellipse", cx=200, cy=190, rx=200, ry=110, fill="#a8502e") + el("ellipse", cx=200, cy=184, rx=190, ry=100, fill="#c96a3d")
    s += plate(200, 180, 70, 26) + el("path", d="M148 176 Q190 150 236 176 L256 164 L252 190 L236 180 Q190 204 148 176 Z", fill="#d99a3b") + el("circle", cx=162, cy=174, r=3, fill="#222")
    s += plate(96, 142, 44, 17) + "".join(el("rect", x=78 + i * 13, y=128, width=11, height=11, rx=2, fill="#7a3416") for i in range(3))
    s += plate(304, 142, 44, 17) + "".join(el("ellipse", cx=286 + i * 10, cy=136 + (i % 2) * 4, rx=9, ry=4, fill="#3e9a4a") for i in range(4))
    s += bowl(100, 232, 70) + bowl(300, 232, 70)
    return s + chopsticks(150, 268)


@picture("shop-4")  # Mamala: a Southeast Asian curry with coconut
def _():
    s = el("rect", width=W, height=200, fill="#f2d16b")
    for i in range(6):
        s += el("path", d=f"M{i * 80 - 20} 0 q 40 60 10 130 q -30 -70 -10 -130 Z", fill="#4f9a46", opacity=.8)
    s += table(color="#8c5a33", line="#74482a")
    s += bowl(200, 200, 170, color="#ffffff", food="#f0a530", band="#d0462f")
    s += "".join(el("ellipse", cx=170 + i * 20, cy=198, rx=8, ry=5, fill="#f8e7c9") for i in range(4)) + el("ellipse", cx=214, cy=194, rx=10, ry=4, fill="#5a9e3e")
    s += el("circle", cx=330, cy=236, r=36, fill="#6d4a2e") + el("circle", cx=330, cy=236, r=28, fill="#f8f4ea")
    return s + el("path", d="M58 250 a 24 24 0 0 1 48 0 Z", fill="#8cc63f") + el("path", d="M62 250 a 20 20 0 0 1 40 0 Z", fill="#d6f09a")


@picture("shop-5")  # 海底捞火锅: a two-broth hotpot
def _():
    s = el("rect", width=W, height=200, fill="#b3241c") + table(color="#3b3b3b", line="#2e2e2e")
    s += el("ellipse", cx=200, cy=190, rx=130, ry=56, fill="#8d8f96") + el("ellipse", cx=200, cy=184, rx=118, ry=48, fill="#f3efe4")
    s += el("path", d="M82 184 A118 48 0 0 1 318 184 Q260 150 200 184 Q140 218 82 184 Z", fill="#d7301f")
    for x, y in [(140, 170), (180, 160), (240, 158), (280, 172)]:
        s += el("circle", cx=x, cy=y, r=5, fill="#8b0000") + el("path", d=f"M{x + 8} {y + 4} q 6 -8 12 -2", fill="none", stroke="#2e7d32", stroke_width=2)
    for x, y in [(150, 206), (210, 210), (260, 200)]:
        s += el("circle", cx=x, cy=y, r=7, fill="#e8d8b0")
    return s + steam(160, 140) + steam(250, 140) + lamb_plate(60, 272) + lamb_plate(340, 272)


@picture("shop-6")  # 幸福里老北京涮锅: old Beijing chimney hotpot, sesame sauce
def _():
    s = el("rect", width=W, height=200, fill="#3b5f8a") + "".join(el("rect", x=i * 50 + 4, y=20, width=40, height=120, fill="#2c4a6e", rx=3) for i in range(8))
    s += lantern(200, 34, .8) + table(color="#9c6b3f", line="#845a33") + copper_pot(200, 180, coal=True)
    s += bowl(60, 250, 60, food="#b7834a") + bowl(340, 250, 60, food="#b7834a") + lamb_plate(200, 280)
    return s


@picture("shop-7")  # 炉鱼: a whole grilled fish on a tray with chillies
def _():
    s = el("rect", width=W, height=H, fill="#2b2623") + el("ellipse", cx=200, cy=252, rx=150, ry=22, fill="#ff7a1a", opacity=.7)
    s += el("rect", x=50, y=120, width=300, height=130, rx=30, fill="#8e9199") + el("rect", x=62, y=130, width=276, height=110, rx=24, fill="#b3241c")
    s += el("path", d="M96 186 Q180 126 270 180 L320 150 L312 214 L270 192 Q180 246 96 186 Z", fill="#e2a04a")
    for i in range(6):
        s += el("path", d=f"M{130 + i * 22} 168 q 8 18 0 36", fill="none", stroke="#9c5a1c", stroke_width=3)
    s += el("circle", cx=112, cy=182, r=5, fill="#222")
    for x, y in [(90, 226), (150, 232), (230, 230), (300, 222), (120, 146), (250, 148)]:
        s += el("path", d=f"M{x} {y} q 10 -6 22 0 q -10 6 -22 0 Z", fill="#ff2d1a") + el("line", x1=x + 22, y1=y, x2=x + 28, y2=y - 4, stroke="#2e7d32", stroke_width=2)
    return s + steam(200, 130)


@picture("shop-8")  # 浅草屋寿司: sushi on a wooden board, a noren curtain
def _():
    s = el("rect", width=W, height=H, fill="#efe6d6") + "".join(el("rect", x=i * 80 + 4, y=0, width=72, height=70, fill="#24386b") for i in range(5))
    s += "".join(el("circle", cx=i * 80 + 40, cy=36, r=12, fill="#efe6d6") for i in range(5))
    s += el("rect", x=40, y=150, width=320, height=70, rx=8, fill="#c89b63") + el("rect", x=60, y=220, width=20, height=20, fill="#a57a47") + el("rect", x=320, y=220, width=20, height=20, fill="#a57a47")
    for i in range(4):
        x = 76 + i * 56
        s += el("ellipse", cx=x, cy=182, rx=24, ry=12, fill="#fbfbf7") + el("path", d=f"M{x - 26} 178 Q{x} 156 {x + 26} 178 Q{x} 172 {x - 26} 178 Z", fill="#ff8a4c" if i % 2 == 0 else "#e23a4a")
        s += el("path", d=f"M{x - 14} 172 l 28 -6" if i % 2 == 0 else f"M{x - 16} 170 l 30 0", stroke="#fff3e6", stroke_width=2)
    s += el("circle", cx=320, cy=182, r=18, fill="#1f2b1c") + el("circle", cx=320, cy=182, r=12, fill="#fbfbf7") + el("circle", cx=320, cy=182, r=6, fill="#ff8a4c")
    return s + chopsticks(100, 270, "#8b5a2b")


@picture("shop-9")  # 羊老三羊蝎子: lamb-spine charcoal hotpot
def _():
    s = el("rect", width=W, height=200, fill="#553322") + table(color="#3a2a20", line="#2d2019")
    s += el("ellipse", cx=200, cy=250, rx=70, ry=14, fill="#ff5a1a", opacity=.8)
    s += el("path", d="M92 170 Q92 250 200 250 Q308 250 308 170 Z", fill="#2a2a2e") + el("ellipse", cx=200, cy=170, rx=108, ry=30, fill="#3a3a40") + el("ellipse", cx=200, cy=168, rx=98, ry=24, fill="#b5461f")
    for x, y in [(150, 160), (190, 156), (230, 162), (170, 176), (214, 176), (252, 170)]:
        s += el("path", d=f"M{x - 14} {y} q 4 -10 14 -8 q 10 -2 14 8 q -4 8 -14 6 q -10 2 -14 -6 Z", fill="#e8d3b9") + el("circle", cx=x, cy=y - 2, r=3, fill="#8b4a2a")
    return s + steam(200, 138) + lamb_plate(60, 272) + lamb_plate(340, 272)


@picture("shop-10")  # 开乐迪KTV: a karaoke room with a big screen
def _():
    return ktv_room("#ffd84d") + mic(150, 150) + mic(250, 150, color="#ffd84d") + note(70, 120) + note(330, 110, "#38e1ff")


@picture("shop-11")  # INLOVE KTV: disco ball and hearts
def _():
    s = ktv_room("#ff4fd8", "#3a1450") + disco(60, 80, 30) + disco(340, 70, 24)
    return s + heart(200, 110, 2.4, "#ff4f8b") + heart(150, 100, 1.2, "#ff9ac1") + heart(252, 96, 1.2, "#ff9ac1") + mic(200, 190)


@picture("shop-12")  # 魅: a neon lounge with cocktails
def _():
    s = el("rect", width=W, height=H, fill="#120a24")
    for i, c in enumerate(["#ff4fd8", "#38e1ff", "#9b5cff"]):
        s += el("circle", cx=200, cy=90, r=70 - i * 16, fill="none", stroke=c, stroke_width=4, opacity=.9)
    s += el("rect", x=0, y=200, width=W, height=100, fill="#2a1846") + el("rect", x=0, y=196, width=W, height=8, fill="#9b5cff")
    for x, c in [(110, "#ff4fd8"), (200, "#38e1ff"), (290, "#ffd84d")]:
        s += el("path", d=f"M{x - 26} 140 L{x + 26} 140 L{x} 176 Z", fill=c, opacity=.85) + el("line", x1=x, y1=176, x2=x, y2=200, stroke="#dddddd", stroke_width=3)
        s += el("circle", cx=x + 14, cy=136, r=6, fill="#d6f09a")
    return s + note(50, 60, "#ff4fd8") + note(350, 60, "#38e1ff")


@picture("shop-13")  # 讴K拉量贩KTV: a corridor of karaoke rooms
def _():
    s = el("rect", width=W, height=H, fill="#22163a") + el("path", d="M0 300 L140 170 L260 170 L400 300 Z", fill="#3a2a5c")
    for i, c in enumerate(["#ff4fd8", "#38e1ff", "#ffd84d", "#7cff6b"]):
        s += el("rect", x=10 + i * 22, y=60 + i * 20, width=16, height=200 - i * 40, fill=c, opacity=.85)
        s += el("rect", x=374 - i * 22, y=60 + i * 20, width=16, height=200 - i * 40, fill=c, opacity=.85)
    s += el("rect", x=150, y=60, width=100, height=110, fill="#5b2a86") + el("rect", x=160, y=70, width=80, height=50, fill="#1c2a6b")
    return s + note(180, 104) + note(212, 100, "#38e1ff") + mic(200, 210, 1.3)


@picture("shop-14")  # 星聚会KTV: a party room with stars and balloons
def _():
    s = ktv_room("#7cff6b")
    for x, y, r, c in [(50, 70, 16, "#ffd84d"), (350, 60, 14, "#ffd84d"), (80, 170, 10, "#38e1ff"), (320, 160, 12, "#ff4fd8"), (200, 40, 9, "#ffffff")]:
        s += star(x, y, r, c)
    for x, c in [(40, "#ff4f8b"), (70, "#38e1ff"), (330, "#ffd84d"), (360, "#7cff6b")]:
        s += el("ellipse", cx=x, cy=120, rx=16, ry=20, fill=c) + el("path", d=f"M{x} 140 q 6 20 -2 40", fill="none", stroke="#dddddd", stroke_width=1.5)
    return s + mic(200, 190, 1.2, "#ffd84d")


@picture("post-steak")  # a tomahawk steak dinner
def _():
    s = el("rect", width=W, height=H, fill="#2d2a26") + el("ellipse", cx=200, cy=180, rx=180, ry=100, fill="#8a5a33") + el("ellipse", cx=200, cy=176, rx=170, ry=92, fill="#a66c3d")
    s += el("rect", x=262, y=120, width=110, height=22, rx=11, fill="#f3ead8", transform="rotate(-25 262 130)")
    s += el("ellipse", cx=200, cy=180, rx=100, ry=62, fill="#5a2a14") + el("ellipse", cx=196, cy=176, rx=86, ry=50, fill="#7a3a1c")
    for i in range(5):
        s += el("line", x1=130 + i * 30, y1=140, x2=110 + i * 30, y2=214, stroke="#3d1a0a", stroke_width=5, opacity=.8)
    s += el("path", d="M150 214 q 30 12 60 0 l -6 10 q -24 8 -48 0 Z", fill="#d9534f")
    return s + "".join(el("path", d=f"M{60 + i * 10} 250 q 10 -20 30 -26", fill="none", stroke="#3e7d3a", stroke_width=3) for i in range(3)) + steam(200, 110)


@picture("post-garden")  # a flower-garden table with red wine
def _():
    s = el("rect", width=W, height=H, fill="#f7e4e8")
    for i in range(18):
        x, y = (i * 53) % 400 + 10, 20 + (i * 37) % 150
        s += flower(x, y, 10 + i % 3 * 3, ["#ff7aa2", "#ffb3c7", "#e84a76", "#ffffff"][i % 4])
    s += el("ellipse", cx=200, cy=250, rx=200, ry=60, fill="#ffffff") + el("ellipse", cx=200, cy=246, rx=190, ry=52, fill="#f4f1ec")
    s += wine(150, 160) + wine(250, 160)
    s += el("rect", x=192, y=214, width=16, height=26, fill="#fff7e0") + el("path", d="M200 204 q 6 6 0 12 q -6 -6 0 -12 Z", fill="#ffb020")
    return s + flower(90, 252, 14, "#e84a76") + flower(310, 252, 14, "#ff7aa2")


@picture("post-pasta")  # creamy bacon pasta
def _():
    s = el("rect", width=W, height=H, fill="#d8e4ee") + el("rect", x=0, y=0, width=W, height=H, fill="#c5d6e4", opacity=.5)
    s += plate(200, 160, 150, 110, fill="#fafafa", rim="#e3e3e3")
    for i in range(9):
        r = 20 + i * 9
        s += el("ellipse", cx=200, cy=158, rx=r, ry=r * .66, fill="none", stroke="#f1d27a" if i % 2 else "#e8c35a", stroke_width=7)
    for x, y in [(150, 140), (240, 130), (200, 190), (260, 170), (160, 180), (210, 120)]:
        s += el("rect", x=x, y=y, width=16, height=8, rx=2, fill="#c0573a")
    return s + "".join(el("circle", cx=170 + i * 17, cy=150 + (i % 3) * 12, r=3, fill="#3e7d3a") for i in range(6))


@picture("post-charsiu")  # char siu rice with two runny eggs
def _():
    s = el("rect", width=W, height=H, fill="#f3d9b1") + checkers(220, "#2f6fb0", "#f7f1e3", 20)
    s += bowl(200, 160, 250, food="#fffaf0")
    for i in range(5):
        s += el("path", d=f"M{110 + i * 32} 150 l 30 -6 l 4 16 l -30 6 Z", fill="#b22d2d") + el("path", d=f"M{112 + i * 32} 156 l 26 -5", stroke="#e87a5a", stroke_width=3)
    s += egg(170, 164) + egg(236, 164)
    return s + el("path", d="M300 150 q 20 -20 40 -6 q -20 14 -40 6 Z", fill="#3e9a4a") + chopsticks(260, 290)


@picture("post-milktea")  # Hong Kong milk tea with a bear-shaped ice
def _():
    s = el("rect", width=W, height=H, fill="#f6e7d0") + checkers(230, "#c0392b", "#f7f1e3", 20)
    s += el("path", d="M140 60 L156 250 L244 250 L260 60 Z", fill="#e8e8e8", opacity=.6) + el("path", d="M144 100 L157 246 L243 246 L256 100 Z", fill="#c68b59")
    s += el("circle", cx=200, cy=122, r=34, fill="#f4ead8") + el("circle", cx=174, cy=94, r=12, fill="#f4ead8") + el("circle", cx=226, cy=94, r=12, fill="#f4ead8")
    s += el("circle", cx=188, cy=118, r=4, fill="#3b2412") + el("circle", cx=212, cy=118, r=4, fill="#3b2412") + el("ellipse", cx=200, cy=132, rx=8, ry=6, fill="#b07a4a")
    return s + el("rect", x=228, y=30, width=8, height=120, fill="#e4572e", transform="rotate(12 232 90)")


@picture("post-toast")  # French toast with butter and condensed milk
def _():
    s = el("rect", width=W, height=H, fill="#e9dccb") + plate(200, 200, 150, 60)
    for i in range(2):
        y = 176 - i * 26
        s += el("rect", x=120, y=y, width=160, height=28, rx=10, fill="#c9822e") + el("rect", x=124, y=y + 2, width=152, height=10, rx=6, fill="#e8a94a")
    s += el("rect", x=180, y=116, width=40, height=16, rx=3, fill="#fff1a8")
    return s + el("path", d="M130 132 q 30 20 60 0 q 30 -20 60 0 q 20 14 30 0", fill="none", stroke="#fffaf0", stroke_width=6, stroke_linecap="round")


@picture("post-horse")  # horse riding in the countryside
def _():
    s = el("rect", width=W, height=H, fill="#bfe3f5") + el("circle", cx=340, cy=56, r=26, fill="#ffd84d")
    s += el("path", d="M0 170 Q80 110 160 160 Q240 110 400 160 L400 300 L0 300 Z", fill="#7cb86a") + el("rect", x=0, y=210, width=W, height=90, fill="#8fca72")
    for x in range(10, 400, 60):
        s += el("rect", x=x, y=196, width=6, height=40, fill="#8a5a33")
    s += el("rect", x=0, y=204, width=W, height=5, fill="#8a5a33") + el("rect", x=0, y=220, width=W, height=5, fill="#8a5a33")
    return s + horse(190, 224)


# The demo users' avatars: square, 200x200 units, rendered at 480x480.
A = 200
AVATARS = {}


def avatar(name):
    def reg(f):
        AVATARS[name] = f
        return f
    return reg


def avatar_svg(body, bg):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {A} {A}" width="480" height="480">'
            f'<rect width="{A}" height="{A}" fill="{bg}"/>{body}</svg>\n')


@avatar("avatar-fish")  # 小鱼同学 ("little fish"): a goldfish among bubbles
def _():
    s = el("path", d="M0 160 Q50 145 100 160 T200 160 L200 200 L0 200 Z", fill="#5fa8d3")
    s += el("path", d="M48 100 Q90 48 138 100 Q90 152 48 100 Z", fill="#f28c28")
    s += el("path", d="M136 100 L176 70 Q166 100 176 130 Z", fill="#e4572e")
    s += el("path", d="M78 70 Q92 52 110 66 Z", fill="#e4572e") + el("path", d="M84 128 Q96 142 108 132 Z", fill="#e4572e")
    s += el("path", d="M96 80 Q104 100 96 120", fill="none", stroke="#ffd0a0", stroke_width=4, stroke_linecap="round")
    s += el("circle", cx=68, cy=94, r=8, fill="#ffffff") + el("circle", cx=66, cy=94, r=4, fill="#1d2b3a")
    s += el("path", d="M52 108 Q58 112 62 106", fill="none", stroke="#1d2b3a", stroke_width=2.5, stroke_linecap="round")
    for cx, cy, r in ((40, 60, 7), (30, 36, 5), (46, 22, 4), (150, 40, 6)):
        s += el("circle", cx=cx, cy=cy, r=r, fill="none", stroke="#ffffff", stroke_width=2.5, opacity=.8)
    return avatar_svg(s, "#bfe3f5")


@avatar("avatar-bunny")  # 可可今天不吃肉 ("no meat today"): a bunny with a carrot
def _():
    s = el("ellipse", cx=74, cy=52, rx=16, ry=44, fill="#ffffff", transform="rotate(-12 74 52)")
    s += el("ellipse", cx=126, cy=52, rx=16, ry=44, fill="#ffffff", transform="rotate(12 126 52)")
    s += el("ellipse", cx=74, cy=56, rx=8, ry=32, fill="#f6b8c8", transform="rotate(-12 74 56)")
    s += el("ellipse", cx=126, cy=56, rx=8, ry=32, fill="#f6b8c8", transform="rotate(12 126 56)")
    s += el("ellipse", cx=100, cy=126, rx=62, ry=54, fill="#ffffff")
    s += el("circle", cx=78, cy=116, r=7, fill="#2b2b2b") + el("circle", cx=122, cy=116, r=7, fill="#2b2b2b")
    s += el("circle", cx=80, cy=113, r=2.5, fill="#ffffff") + el("circle", cx=124, cy=113, r=2.5, fill="#ffffff")
    s += el("ellipse", cx=64, cy=136, rx=10, ry=6, fill="#f6b8c8") + el("ellipse", cx=136, cy=136, rx=10, ry=6, fill="#f6b8c8")
    s += el("path", d="M94 132 L106 132 L100 139 Z", fill="#e07a95")
    s += el("path", d="M100 139 Q92 148 86 142 M100 139 Q108 148 114 142", fill="none", stroke="#2b2b2b", stroke_width=2.5, stroke_linecap="round")
    s += el("path", d="M118 196 L152 150 Q160 144 164 152 Z", fill="#f28c28")
    s += el("path", d="M160 150 Q168 130 160 122 M162 150 Q178 138 184 140 M161 150 Q172 146 178 158", fill="none", stroke="#4caf50", stroke_width=5, stroke_linecap="round")
    return avatar_svg(s, "#cde8c1")


@avatar("avatar-cone")  # 可爱多 (an ice-cream cone brand): an ice-cream cone
def _():
    s = el("path", d="M62 98 L100 188 L138 98 Z", fill="#d9a05b")
    for i in range(-3, 4):
        s += el("line", x1=62 + i * 12, y1=98, x2=110 + i * 12, y2=176, stroke="#b57a3a", stroke_width=2.5)
        s += el("line", x1=138 - i * 12, y1=98, x2=90 - i * 12, y2=176, stroke="#b57a3a", stroke_width=2.5)
    s += el("path", d="M0 0 L62 98 L0 200 Z M200 0 L138 98 L200 200 Z M62 98 L100 188 L0 200 Z M138 98 L100 188 L200 200 Z", fill="#f9d3e0")
    s += el("circle", cx=100, cy=74, r=42, fill="#f7a8c4") + el("circle", cx=70, cy=92, r=18, fill="#f7a8c4") + el("circle", cx=130, cy=92, r=18, fill="#f7a8c4")
    s += el("path", d="M66 62 Q100 28 134 62 Q120 54 100 58 Q80 54 66 62 Z", fill="#6b3e1f")
    for x, y, c in ((84, 78, "#4fc3f7"), (108, 70, "#ffd84d"), (118, 90, "#81c784"), (92, 96, "#ffffff"), (74, 100, "#ffd84d")):
        s += el("rect", x=x, y=y, width=8, height=3, rx=1.5, fill=c, transform=f"rotate(30 {x} {y})")
    s += el("circle", cx=100, cy=30, r=9, fill="#d62839")
    return avatar_svg(s, "#f9d3e0")


if __name__ == "__main__":
    os.makedirs("svg", exist_ok=True)
    for name, f in PICTURES.items():
        with open(f"svg/{name}.svg", "w") as out:
            out.write(svg(f()))
    for name, f in AVATARS.items():
        with open(f"svg/{name}.svg", "w") as out:
            out.write(f())
    print(len(PICTURES), "pictures,", len(AVATARS), "avatars")
