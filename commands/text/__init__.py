"""Text people type or paste, and the text formats a tournament is exchanged in: results
as said at the desk, deck lists as deck builders export them, spreadsheets of players,
pasted players and teams, the slip page's form and the results document as CSV or JSON.
Each parser turns text into commands of the contract or says in one line what is wrong."""
