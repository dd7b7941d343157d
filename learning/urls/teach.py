"""URLs of the learning app's teach pages."""

urlpatterns: list = []
