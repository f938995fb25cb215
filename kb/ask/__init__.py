"""Ask: the ruling for a question, the answer card composed from it, and what the question asks."""
