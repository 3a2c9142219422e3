// A to-do app written for Flock, as Flock's own sample apps are: express, the official flockos SDK,
// tokens kept from app.install. It runs against Aviary unchanged; only flock.baseUrl points at Aviary,
// and the app has Flock-compatible naming turned on (docs/flock-compatibility.md).
var flock = require('flockos');
var express = require('express');
var config = require('./config.js');

flock.appId = config.appId;
flock.appSecret = config.appSecret;
flock.baseUrl = config.baseUrl;

var app = express();

// flockos checks every event token it finds (X-Flock-Event-Token, or flockEventToken in a widget's URL)
// and answers 403 to one that is not this app's.
app.use(flock.events.tokenVerifier);

// flockos 0.0.6's middleware passes a request that carries no token at all: ask flockos's own
// verifyToken about it too, which refuses a missing token. Nothing flockos did not verify is taken.
// flockos checks a token's signature and appId only; the server's tokens also say what they are for
// (`route`: listener, widget or browser). A widget's token, which anyone holding the widget's URL has,
// must not pass for an event at /events, nor an event's for a widget.
var verifiedFor = function (routes) {
    return function (req, res, next) {
        var payload = res.locals.eventTokenPayload || flock.events.verifyToken(req.get('x-flock-event-token') || req.query.flockEventToken);
        if (payload && (payload.route === undefined || routes.indexOf(payload.route) >= 0)) {
            next();
            return;
        }
        res.sendStatus(403);
    };
};

app.post('/events', verifiedFor(['listener']), flock.events.listener);

var tokens = {};
var todos = {};

var todosOf = function (chat) {
    todos[chat] = todos[chat] || [];
    return todos[chat];
};

var addTodo = function (chat, text) {
    var list = todosOf(chat);
    var todo = { id: list.length + 1, text: text, done: false };
    list.push(todo);
    return todo;
};

var escapeMarkup = function (text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
};

flock.events.on('app.install', function (event, callback) {
    tokens[event.userId] = event.token;
    callback(null, {});
});

flock.events.on('app.uninstall', function (event, callback) {
    delete tokens[event.userId];
    callback(null, {});
});

// `/todo <text>` posts the to-do to the chat with a Done action; `/todo channels` describes the chat.
flock.events.on('client.slashCommand', function (event, callback) {
    var text = event.text.trim();
    if (text === 'channels') {
        describeChannel(event, callback);
        return;
    }
    var todo = addTodo(event.chat, text);
    flock.chat.sendMessage(tokens[event.userId], {
        to: event.chat,
        text: 'To do: ' + text,
        flockml: '<flockml>To do: <b>' + escapeMarkup(text) + '</b> <action id="done-' + todo.id + '" type="sendEvent">Done</action></flockml>'
    }, function (error) {
        callback(null, { text: error ? 'Could not post: ' + error.message : 'Added #' + todo.id });
    });
});

var describeChannel = function (event, callback) {
    var token = tokens[event.userId];
    flock.groups.list(token, {}, function (error, groups) {
        var group = !error && groups.filter(function (g) { return g.id === event.chat; })[0];
        if (!group) {
            callback(null, { text: 'Not a channel of yours' });
            return;
        }
        flock.groups.getInfo(token, { groupId: group.id }, function (error, info) {
            flock.groups.getMembers(token, { groupId: group.id }, function (error2, members) {
                if (error || error2) {
                    callback(error || error2);
                    return;
                }
                callback(null, { text: info.name + ': ' + members.length + ' members' });
            });
        });
    });
};

flock.events.on('client.flockmlAction', function (event, callback) {
    var id = Number(event.actionId.replace('done-', ''));
    var todo = todosOf(event.chat).filter(function (t) { return t.id === id; })[0];
    if (!todo) {
        callback(null, { text: 'No such to-do' });
        return;
    }
    todo.done = true;
    callback(null, { text: 'Done: ' + todo.text });
});

// The selected messages, as they are now, become to-dos.
flock.events.on('client.messageAction', function (event, callback) {
    flock.chat.fetchMessages(tokens[event.userId], { chat: event.chat, uids: event.messageUids }, function (error, messages) {
        if (error) {
            callback(error);
            return;
        }
        messages.forEach(function (message) { addTodo(event.chat, message.text); });
        callback(null, { text: messages.length + ' to-do(s) added' });
    });
});

var allTodos = function () {
    return Object.keys(todos).reduce(function (all, chat) { return all.concat(todos[chat]); }, []);
};

// The bot answers a direct message with how much is left to do, then takes the event.
flock.events.on('chat.receiveMessage', function (event, callback) {
    var open = allTodos().filter(function (t) { return !t.done; }).length;
    flock.chat.sendMessage(config.botToken, { to: event.userId, text: 'You said "' + event.message.text + '"; ' + open + ' to-do(s) open.' }, function (error) {
        callback(error, {});
    });
});

flock.events.on('chat.generateUrlPreview', function (event, callback) {
    callback(null, { title: 'A to-do link', description: 'for message ' + event.messageId, views: { flockml: '<flockml><b>' + allTodos().length + '</b> to-dos</flockml>' } });
});

// The launcher button opens this widget: the event comes in flockEvent, verified above with flockEventToken.
app.get('/launcher', verifiedFor(['widget', 'browser']), function (req, res) {
    var event = JSON.parse(req.query.flockEvent);
    var items = allTodos().map(function (todo) {
        return '<li>' + (todo.done ? '✓ ' : '') + escapeMarkup(todo.text) + '</li>';
    });
    res.set('Content-Type', 'text/html');
    res.send('<!doctype html><title>To-dos</title><script src="' + config.baseUrl.replace(/\/v1$/, '') + '/flock.js"></script>' +
        '<h1>To-dos for ' + escapeMarkup(event.userName) + '</h1><ul>' + items.join('') + '</ul>' +
        '<button onclick="flock.close()">Close</button>');
});

var server = app.listen(config.port, '127.0.0.1', function () {
    console.log('Listening on port: ' + server.address().port);
});
