//! Heuristic search: generic algorithms over a problem trait, and the classic puzzles.
//!
//! Independent of the exact cover engine.

#![deny(missing_docs, rustdoc::broken_intra_doc_links)]
