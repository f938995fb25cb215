"""Search: query understanding, the Whoosh index, ranking and snippets, the offline index."""
