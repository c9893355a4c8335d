"""The web side: Flask app factory, the JSON API, server-sent events, roles and the stream delay."""
