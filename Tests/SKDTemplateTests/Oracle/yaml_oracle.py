"""The reference for skdpack's YAML reader: ruamel.yaml (YAML 1.2) composes each document into nodes.

Reads a JSON list of documents on standard input and writes a JSON list of results, one per document:
{"node": N} where N is {"scalar": text, "plain": bool}, {"mapping": [[key, value], ...]} or
{"sequence": [...]}; {"empty": true} for a document with no node; {"error": message} when ruamel.yaml
refuses it. Nodes, not constructed values: the reader gives scalars as text and says whether they were
plain, and template files decide what `true` means. Installed by scripts/test in a virtual environment.
"""
import json
import sys

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode


def canonical(node, depth=0):
    if depth > 200:
        raise ValueError("too deep")
    if isinstance(node, ScalarNode):
        return {"scalar": node.value, "plain": node.style is None}
    if isinstance(node, MappingNode):
        return {"mapping": [[canonical(k, depth + 1), canonical(v, depth + 1)] for k, v in node.value]}
    if isinstance(node, SequenceNode):
        return {"sequence": [canonical(item, depth + 1) for item in node.value]}
    raise ValueError("unknown node %r" % type(node))


def compose(text):
    # The safe loader: the round-trip one marks folds in folded scalars with \a.
    yaml = YAML(typ="safe", pure=True)
    try:
        node = yaml.compose(text)
        if node is None:
            return {"empty": True}
        return {"node": canonical(node)}
    except Exception as error:  # every refusal of ruamel.yaml's is an answer, whatever its class
        return {"error": "%s: %s" % (type(error).__name__, str(error).splitlines()[0] if str(error) else "")}


def main():
    documents = json.load(sys.stdin)
    json.dump([compose(text) for text in documents], sys.stdout)


if __name__ == "__main__":
    main()
