"""The page forms (WTForms), one module per thing a form edits: tables, hands, players, people.

A form turns what a phone typed into the values the services take; every value is then
checked once, by the service or the engine, whatever the door."""
