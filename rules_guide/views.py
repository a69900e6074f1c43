"""The rules guide."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def guide(request: HttpRequest) -> HttpResponse:
    return render(request, "rules_guide/guide.html")
