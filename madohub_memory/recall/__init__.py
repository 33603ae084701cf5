"""Searchable memory: embeddings, keyword index, hybrid ranking, decay, working memory."""
