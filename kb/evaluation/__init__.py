"""Evaluation: retrieval (R@k, MRR) and answer cards against gold lines and answer keywords."""
