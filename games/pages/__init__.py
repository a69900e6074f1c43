"""The pages of the table core (HTTP): home and playing the computer, the table
page, fair play's files and the review fragment, their forms and URLs."""
