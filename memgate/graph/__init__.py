"""Provenance graph: FalkorDB projection of the log and reads, and investigations."""
