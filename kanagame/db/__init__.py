"""Database backends of the product (named in ``settings.DATABASES``)."""
