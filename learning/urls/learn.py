"""URLs of the learning app's learn pages."""

urlpatterns: list = []
