//! Outside brains as seats (below).
