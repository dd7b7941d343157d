"""URLs of the learning app's classroom pages: /join/ and the teacher's /teach/ pages."""

from django.urls import path

from learning.classroom.views import join, play, privacy
from learning.classroom.views.teach import assignments, classes, dashboard, exports, live, students

urlpatterns = [
    path("join/", join.join, name="join"),
    path("assignments/<int:assignment_id>/play/", play.assignment_play, name="assignment_play"),
    path("assignments/<int:assignment_id>/new/<slug:engine>/", play.assignment_table_new,
         name="assignment_table_new"),
    # Account data and deletion read and delete rows of every app: the top layer serves them.
    path("account/data.json", privacy.account_data, name="account_data"),
    path("account/delete/", privacy.account_delete, name="account_delete"),
    path("teach/", classes.teach_home, name="teach_home"),
    path("teach/<int:class_id>/", dashboard.teach_class, name="teach_class"),
    path("teach/<int:class_id>/refresh/", dashboard.teach_refresh, name="teach_refresh"),
    path("teach/<int:class_id>/kana/<str:script>/<str:kana_id>/", dashboard.teach_kana,
         name="teach_kana"),
    path("teach/<int:class_id>/settings/", classes.teach_class_settings,
         name="teach_class_settings"),
    path("teach/<int:class_id>/code/", classes.teach_class_code, name="teach_class_code"),
    path("teach/<int:class_id>/students/", students.teach_roster, name="teach_roster"),
    path("teach/<int:class_id>/students/<int:student_id>/", students.teach_student,
         name="teach_student"),
    path("teach/<int:class_id>/students/<int:student_id>/action/",
         students.teach_student_action, name="teach_student_action"),
    path("teach/<int:class_id>/students/<int:student_id>/delete/",
         students.teach_student_delete, name="teach_student_delete"),
    path("teach/<int:class_id>/students/<int:student_id>/data.json",
         privacy.teach_student_data, name="teach_student_data"),
    path("teach/<int:class_id>/assignments/", assignments.teach_assignments,
         name="teach_assignments"),
    path("teach/<int:class_id>/assignments/<int:assignment_id>/delete/",
         assignments.teach_assignment_delete, name="teach_assignment_delete"),
    path("teach/<int:class_id>/export/progress.csv", exports.teach_export_progress,
         name="teach_export_progress"),
    path("teach/<int:class_id>/export/assignments.csv", exports.teach_export_assignments,
         name="teach_export_assignments"),
    path("teach/<int:class_id>/live/", live.teach_live, name="teach_live"),
]  # fmt: skip
