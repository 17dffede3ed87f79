"""Sources fetch raw items; pure parsers turn each into a `PullRequest`."""
