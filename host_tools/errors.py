"""The one error type the command line turns into `error: ...` and exit status 2."""


class UserError(Exception):
    """Bad input from the user: a message that names what is wrong and where."""
