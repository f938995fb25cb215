"""The FAQ: entries players ask at the table, their loader and matcher, and the gate that lets one lead a card."""
