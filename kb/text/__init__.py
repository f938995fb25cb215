"""Text analysis and matching: the Russian analyzer, finding terms in text, inflection, sentences that rule."""
