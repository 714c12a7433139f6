#!/usr/bin/env python3
"""Checks the project's link graph, as `cmake --graphviz` writes it, for cycles among its own targets.

A cycle (library a links b, which links a) hides which part stands on which: CMake resolves it by
repeating archives on the link line, so nothing fails until the day an order matters. Usage:
    check_link_graph.py GRAPH.dot [--prefix mmaemu]
Exit status: 0 no cycle, 1 a cycle (printed, one target per line), 2 the file is unreadable.
"""
import re
import sys


def read_graph(path):
    labels, edges = {}, {}
    node = re.compile(r'^\s*"(node\d+)"\s*\[\s*label\s*=\s*"([^"]+)"')
    edge = re.compile(r'^\s*"(node\d+)"\s*->\s*"(node\d+)"')
    with open(path, encoding="utf-8") as f:
        for line in f:
            if m := node.match(line):
                labels[m.group(1)] = m.group(2)
            elif (m := edge.match(line)) and m.group(1) != m.group(2):
                # CMake 3.25 draws an edge from each test executable to itself (its test discovery);
                # a target cannot link itself, so such an edge is no cycle.
                edges.setdefault(m.group(1), set()).add(m.group(2))
    return labels, edges


def find_cycle(nodes, edges):
    """One cycle as a list of nodes (first == last), or None. Iterative depth-first search."""
    state = {}  # absent: unseen, 1: on the stack, 2: done
    for root in sorted(nodes):
        if root in state:
            continue
        stack = [(root, iter(sorted(edges.get(root, ()))))]
        path = [root]
        state[root] = 1
        while stack:
            n, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[n] = 2
                stack.pop()
                path.pop()
            elif nxt not in nodes:
                continue
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(sorted(edges.get(nxt, ())))))
                path.append(nxt)
    return None


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    prefix = argv[argv.index("--prefix") + 1] if "--prefix" in argv else "mmaemu"
    try:
        labels, edges = read_graph(argv[1])
    except OSError as e:
        print(f"check_link_graph: {argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    own = {n for n, label in labels.items() if label.startswith(prefix)}
    if not own:
        print(f"check_link_graph: {argv[1]}: no target named {prefix}* (not a graph of this project?)", file=sys.stderr)
        return 2
    cycle = find_cycle(own, edges)
    if cycle:
        print("link cycle among the project's targets:\n  " + "\n  -> ".join(labels[n] for n in cycle))
        return 1
    links = sum(len(edges.get(n, set()) & own) for n in own)
    print(f"no link cycle among {len(own)} targets ({links} links between them)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
