from django.urls import path

from rules_guide import views

app_name = "rules_guide"
urlpatterns = [path("", views.guide, name="guide")]
