"""The knowledge graph: curation, cross-references, the linker, validation, the build stage and its queries."""
