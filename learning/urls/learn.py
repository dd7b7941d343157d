"""URLs of the learning app's learner pages: dashboard, quiz, prompt answers, daily session."""

from django.urls import path

from learning.views import daily, learn, syllabus

app_name = "learn"

urlpatterns = [
    path("learn/", learn.dashboard, name="dashboard"),
    path("learn/quiz/", learn.quiz, name="quiz"),
    path("learn/lesson/", learn.lesson, name="lesson"),
    path("learn/kana/<str:script>/<str:kana_id>/", learn.kana_detail, name="kana"),
    path("learn/syllabus/", syllabus.syllabus_choose, name="syllabus"),
    path("learn/memory/refit/", learn.parameters_refit, name="parameters_refit"),
    path("learn/prompts/<int:prompt_id>/answer/", learn.prompt_answer, name="prompt_answer"),
    path("daily/", daily.daily, name="daily"),
]
