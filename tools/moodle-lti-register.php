<?php
// moodle-lti-register.php: warpscope registered in a Moodle as an LTI 1.3 external tool, through
// Moodle's own API (run by tools/moodle-lti.sh, as PHP's CLI, from outside Moodle's folder).
//
//   php moodle-lti-register.php MOODLE_DIR TOOL_URL REGISTRATION_JSON EXERCISES_DIR
//     a course (cuda-lab), a teacher (teacher1) and a student (student1) enrolled in it, the tool
//     type (LTI 1.3: the tool's keyset, login and launch addresses; grades by AGS; Deep Linking),
//     an activity of exercise 02 whose grade is out of its goals; warpscope's registration written
//     to REGISTRATION_JSON (the platform's issuer, client id, addresses, deployment id); prints
//     course=ID and cmid=ID.
//   php moodle-lti-register.php MOODLE_DIR grades COURSE_ID
//     the grades Moodle's gradebook keeps for the course's LTI activities, one line each.
define('CLI_SCRIPT', true);
$dir = $argv[1];
require($dir . '/config.php');
require_once($CFG->dirroot . '/course/lib.php');
require_once($CFG->dirroot . '/course/modlib.php');
require_once($CFG->dirroot . '/mod/lti/locallib.php');
require_once($CFG->dirroot . '/user/lib.php');
require_once($CFG->libdir . '/gradelib.php');
require_once($CFG->libdir . '/enrollib.php');
\core\session\manager::set_user(get_admin());

if ($argv[2] === 'grades') {
    $rows = $DB->get_records_sql("SELECT gg.id, gi.itemname, gi.grademax, gg.finalgrade, u.username, gg.timemodified
                                    FROM {grade_items} gi JOIN {grade_grades} gg ON gg.itemid = gi.id JOIN {user} u ON u.id = gg.userid
                                   WHERE gi.courseid = ? AND gi.itemmodule = 'lti'", [(int)$argv[3]]);
    if (!$rows) {
        echo "moodle-lti: no LTI grade in the gradebook of course {$argv[3]}\n";
    }
    foreach ($rows as $r) {
        printf("moodle-lti: gradebook: %s: %s = %s of %s (at %s)\n", $r->username, $r->itemname,
               $r->finalgrade === null ? '-' : format_float($r->finalgrade, 2), format_float($r->grademax, 2), userdate($r->timemodified));
    }
    exit(0);
}

$tool = rtrim($argv[2], '/');
$regfile = $argv[3];
$exdir = $argv[4];

function person($username, $first, $last) {
    global $DB, $CFG;
    if ($u = $DB->get_record('user', ['username' => $username])) {
        return $u;
    }
    $id = user_create_user((object)['username' => $username, 'password' => 'Pass-word-1', 'firstname' => $first, 'lastname' => $last,
        'email' => $username . '@example.com', 'auth' => 'manual', 'confirmed' => 1, 'mnethostid' => $CFG->mnet_localhost_id]);
    return $DB->get_record('user', ['id' => $id]);
}

$course = $DB->get_record('course', ['shortname' => 'cuda-lab']);
if (!$course) {
    $course = create_course((object)['fullname' => 'CUDA reduction lab', 'shortname' => 'cuda-lab', 'category' => 1,
        'summary' => '', 'summaryformat' => FORMAT_HTML]);
}
$teacher = person('teacher1', 'Tess', 'Teacher');
$student = person('student1', 'Ana', 'Lima');
enrol_try_internal_enrol($course->id, $teacher->id, $DB->get_field('role', 'id', ['shortname' => 'editingteacher']));
enrol_try_internal_enrol($course->id, $student->id, $DB->get_field('role', 'id', ['shortname' => 'student']));

// the tool type, once per tool address
$type = $DB->get_record('lti_types', ['baseurl' => $tool . '/lti/launch']);
if (!$type) {
    $t = new stdClass();
    $t->state = LTI_TOOL_STATE_CONFIGURED;
    $t->course = SITEID;
    $t->coursevisible = LTI_COURSEVISIBLE_ACTIVITYCHOOSER;
    $c = new stdClass();
    $c->lti_typename = 'warpscope';
    $c->lti_toolurl = $tool . '/lti/launch';
    $c->lti_description = 'CUDA parallel reduction, traced warp by warp; exercises judged on the trace';
    $c->lti_ltiversion = LTI_VERSION_1P3;
    $c->lti_keytype = LTI_JWK_KEYSET;
    $c->lti_publickeyset = $tool . '/lti/jwks';
    $c->lti_initiatelogin = $tool . '/lti/login';
    $c->lti_redirectionuris = $tool . '/lti/launch';
    $c->lti_contentitem = 1;
    $c->lti_toolurl_ContentItemSelectionRequest = $tool . '/lti/launch';
    $c->lti_coursevisible = LTI_COURSEVISIBLE_ACTIVITYCHOOSER;
    $c->lti_launchcontainer = LTI_LAUNCH_CONTAINER_WINDOW;
    $c->lti_sendname = LTI_SETTING_ALWAYS;
    $c->lti_sendemailaddr = LTI_SETTING_NEVER;
    $c->lti_acceptgrades = LTI_SETTING_ALWAYS;
    $c->lti_forcessl = 0;
    $c->ltiservice_gradesynchronization = 2; // grade sync and column management (AGS)
    $c->ltiservice_memberships = 0;
    $c->ltiservice_toolsettings = 0;
    $typeid = lti_add_type($t, $c);
    $type = $DB->get_record('lti_types', ['id' => $typeid]);
}

// an activity of exercise 02, its grade out of the exercise's goals
$goals = 0;
foreach (glob($exdir . '/02-*.json') as $f) {
    $x = json_decode(file_get_contents($f), true);
    $goals = count($x['exercise']['goals']);
}
$lti = $DB->get_record('lti', ['course' => $course->id, 'typeid' => $type->id]);
if ($lti) {
    $cm = get_coursemodule_from_instance('lti', $lti->id, $course->id);
    $cmid = $cm->id;
} else {
    $mi = new stdClass();
    $mi->modulename = 'lti';
    $mi->module = $DB->get_field('modules', 'id', ['name' => 'lti']);
    $mi->course = $course->id;
    $mi->section = 0;
    $mi->visible = 1;
    $mi->name = 'warpscope: exercise 02, padding against bank conflicts';
    $mi->introeditor = ['text' => '', 'format' => FORMAT_HTML, 'itemid' => 0];
    $mi->typeid = $type->id;
    $mi->toolurl = '';
    $mi->securetoolurl = '';
    $mi->instructorcustomparameters = 'exercise=02';
    $mi->instructorchoiceacceptgrades = 1;
    $mi->instructorchoicesendname = 1;
    $mi->instructorchoicesendemailaddr = 0;
    $mi->launchcontainer = LTI_LAUNCH_CONTAINER_WINDOW;
    $mi->grade = $goals;
    $mi->cmidnumber = '';
    $mi->showtitlelaunch = 1;
    $mi->showdescriptionlaunch = 0;
    $mi->icon = '';
    $mi->secureicon = '';
    $mi->groupmode = 0;
    $mi->groupingid = 0;
    $cm = create_module($mi);
    $cmid = $cm->coursemodule;
}

$reg = [
    'tool_url' => $tool,
    'issuer' => $CFG->wwwroot,
    'client_id' => $type->clientid,
    'auth_login_url' => $CFG->wwwroot . '/mod/lti/auth.php',
    'keyset_url' => $CFG->wwwroot . '/mod/lti/certs.php',
    'token_url' => $CFG->wwwroot . '/mod/lti/token.php',
    'deployment_ids' => [(string)$type->id],
];
file_put_contents($regfile, json_encode($reg, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");
echo "registration: " . json_encode($reg, JSON_UNESCAPED_SLASHES) . "\n";
echo "course={$course->id}\ncmid={$cmid}\n";
