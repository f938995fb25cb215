"""Exact plane geometry of footprints and straight lines: orientation, segments crossing, a point in a
polygon, the squared distance from a segment to a point, a base's sweep against a footprint.

Every coordinate is a :class:`~fractions.Fraction` of an inch and every test is exact (no square roots).
:mod:`rulekb.engine.table.geometry` builds bases and models on these and re-exports them.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "Point",
    "Polygon",
    "d2",
    "point_in_polygon",
    "segment_crosses_polygon",
    "segment_near_polygon",
    "segment_point_d2",
    "segments_cross",
]

Point = tuple[Fraction, Fraction]
Polygon = tuple[Point, ...]


def d2(a: Point, b: Point) -> Fraction:
    """The squared distance between two points."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _orient(a: Point, b: Point, c: Point) -> int:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (v > 0) - (v < 0)


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two closed segments share a point (exact)."""
    o1, o2, o3, o4 = _orient(p1, p2, q1), _orient(p1, p2, q2), _orient(q1, q2, p1), _orient(q1, q2, p2)
    if o1 != o2 and o3 != o4:
        return True
    return any(
        o == 0 and _on_segment(a, b, c)
        for o, a, b, c in ((o1, p1, p2, q1), (o2, p1, p2, q2), (o3, q1, q2, p1), (o4, q1, q2, p2))
    )


def point_in_polygon(p: Point, polygon: Polygon) -> bool:
    """Whether ``p`` is inside the polygon or on its edge (exact; any simple polygon)."""
    n = len(polygon)
    inside = False
    for i in range(n):
        a, b = polygon[i], polygon[(i + 1) % n]
        if _orient(a, b, p) == 0 and _on_segment(a, b, p):
            return True
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                inside = not inside
    return inside


def segment_point_d2(a: Point, b: Point, p: Point) -> Fraction:
    """The squared distance from the segment ``a``–``b`` to the point ``p``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return d2(a, p)
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = min(Fraction(1), max(Fraction(0), t))
    return d2((a[0] + t * dx, a[1] + t * dy), p)


def segment_near_polygon(a: Point, b: Point, polygon: Polygon, radius: Fraction) -> bool:
    """Whether a base of ``radius`` moved from ``a`` to ``b`` overlaps the footprint (touching allowed)."""
    if segment_crosses_polygon(a, b, polygon):
        return True
    r2 = radius * radius
    n = len(polygon)
    for i in range(n):
        p, q = polygon[i], polygon[(i + 1) % n]
        if min(segment_point_d2(a, b, p), segment_point_d2(a, b, q),
               segment_point_d2(p, q, a), segment_point_d2(p, q, b)) < r2:
            return True
    return False


def segment_crosses_polygon(a: Point, b: Point, polygon: Polygon) -> bool:
    """Whether the straight line from ``a`` to ``b`` passes over the footprint (touches or enters it)."""
    if point_in_polygon(a, polygon) or point_in_polygon(b, polygon):
        return True
    n = len(polygon)
    return any(segments_cross(a, b, polygon[i], polygon[(i + 1) % n]) for i in range(n))
