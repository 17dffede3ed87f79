-- What verification replaced of a model's brief, and why ("what: names `Foo`, which the
-- PR does not"): told again by every later digest that reads the brief back, which sends
-- no request. "" for a brief nothing of which was replaced, and for deterministic ones.
ALTER TABLE briefs ADD COLUMN replaced TEXT NOT NULL DEFAULT '';
